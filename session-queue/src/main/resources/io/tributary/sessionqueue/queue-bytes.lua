-- Put in front of every script that adds entries to a session queue or removes them (LuaScript): the byte counter
-- of the queue (meta field 'bytes'), which covers the queue stream and the hold stream, as the count limit does.
-- An entry's size is computed from the entry itself, the same way where it is added and where it is removed, so
-- what a removal subtracts is exactly what the addition added; nothing per entry is stored for it.
-- The counter exists once an append created it (tributary_queue_bytes, from the entries there): a script that finds
-- it missing changes nothing, the count from the entries will include its work. So a queue from before the byte
-- budget, or one a removal reaches after session-service deleted the keys, never gets a counter of the wrong value
-- nor a meta hash without 'created'.

-- The bytes of one entry: its field names and values (topic, payload, headers, position, share groups).
local function tributary_entry_bytes(fields)
  local size = 0
  for j = 1, #fields do
    size = size + #fields[j]
  end
  return size
end

-- The bytes of the entry at id in stream, 0 when it is not there (removed already).
local function tributary_stored_bytes(stream, id)
  local found = redis.call('XRANGE', stream, id, id)
  if #found == 0 then
    return 0
  end
  return tributary_entry_bytes(found[1][2])
end

-- Whether the queue has a byte counter to keep up to date.
local function tributary_counted(meta)
  return redis.call('HEXISTS', meta, 'bytes') == 1
end

-- Adds delta (negative: removed) to the counter, where there is one.
local function tributary_count_bytes(meta, delta)
  if delta ~= 0 and tributary_counted(meta) then
    redis.call('HINCRBY', meta, 'bytes', delta)
  end
end

-- The sum of the entries' bytes of the given streams, read in pages (a page's payloads at a time in memory).
local function tributary_sum_bytes(streams)
  local total = 0
  for _, stream in ipairs(streams) do
    local from = '-'
    while true do
      local page = redis.call('XRANGE', stream, from, '+', 'COUNT', 100)
      for _, entry in ipairs(page) do
        total = total + tributary_entry_bytes(entry[2])
      end
      if #page < 100 then
        break
      end
      from = '(' .. page[#page][1]
    end
  end
  return total
end

-- The queue's bytes (queue and hold streams), from the counter; counted from the entries and stored when there is no
-- counter yet (a queue from before the byte budget) or one below 0. Only a rolling upgrade can make it wrong, never
-- these scripts (CHANGELOG, upgrade order): a router from before appends without counting, so the counter can end
-- below 0, counted again here; a transport from before removes without subtracting, so it ends too high, back to 0
-- here once the queue is empty, whatever the counter says.
local function tributary_queue_bytes(meta, queue, held)
  local stored = tonumber(redis.call('HGET', meta, 'bytes') or '-1')
  local bytes = stored
  if redis.call('XLEN', queue) + redis.call('XLEN', held) == 0 then
    bytes = 0
  elseif stored < 0 then
    bytes = tributary_sum_bytes({queue, held})
  end
  if bytes ~= stored then
    redis.call('HSET', meta, 'bytes', bytes)
  end
  return bytes
end

-- Removes the n oldest entries of the queue (the queue stream's first, then the hold stream's, whose entries are newer)
-- and returns their bytes.
local function tributary_trim_oldest(queue, held, n)
  local removed = 0
  for _, stream in ipairs({queue, held}) do
    if n <= 0 then
      break
    end
    local length = redis.call('XLEN', stream)
    local take = math.min(n, length)
    local left = take
    local from = '-'
    while left > 0 do
      local page = redis.call('XRANGE', stream, from, '+', 'COUNT', math.min(left, 100))
      if #page == 0 then
        break
      end
      for _, entry in ipairs(page) do
        removed = removed + tributary_entry_bytes(entry[2])
      end
      left = left - #page
      from = '(' .. page[#page][1]
    end
    if take > 0 then
      redis.call('XTRIM', stream, 'MAXLEN', length - take)
    end
    n = n - take
  end
  return removed
end
