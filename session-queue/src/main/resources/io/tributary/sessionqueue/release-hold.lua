-- Ends a replay's hold of a session queue: the hold stream's entries move behind the history, except those whose
-- position a replay's history appended (the seam's duplicates); the covered hash stays for ARGV[2] ms, so a router
-- lagging behind the replay appends none of them again.
-- KEYS: hold key, hold stream, queue stream, meta hash, covered hash. ARGV: token ('' = only a hold that expired),
-- covered time to live in ms, the number of replayed filters, the filters, then pairs of publish partition and end
-- offset: a held entry below its partition's end offset on a topic a replayed filter matches is the history's (which
-- has it, or did not ask for it), as live deliveries below the end offsets are for a replay without a queue.
-- Returns {-1, ms left} when another (or, with '', any) replay still holds the queue; otherwise {moved, dropped,
-- last sequence}.
local function split(s)
  local parts = {}
  local from = 1
  while true do
    local slash = string.find(s, '/', from, true)
    if not slash then
      parts[#parts + 1] = string.sub(s, from)
      return parts
    end
    parts[#parts + 1] = string.sub(s, from, slash - 1)
    from = slash + 1
  end
end
-- MQTT topic filter matching, as common's TopicFilters.matches: '+' one level, '#' the rest (and the parent), no
-- wildcard first level for a '$' topic.
local function matches(filter, topic)
  local t = split(topic)
  if string.sub(topic, 1, 1) == '$' and (filter[1] == '+' or filter[1] == '#') then
    return false
  end
  for i = 1, #filter do
    if filter[i] == '#' then
      return true
    end
    if i > #t or (filter[i] ~= '+' and filter[i] ~= t[i]) then
      return false
    end
  end
  return #filter == #t
end
local filters = {}
local count = tonumber(ARGV[3] or '0')
for i = 1, count do
  filters[i] = split(ARGV[3 + i])
end
local ends = {}
for i = 4 + count, #ARGV - 1, 2 do
  ends[ARGV[i]] = tonumber(ARGV[i + 1])
end
local function replayed(topic, position)
  local colon = string.find(position, ':', 1, true)
  local e = ends[string.sub(position, 1, colon - 1)]
  if e == nil or tonumber(string.sub(position, colon + 1)) >= e then
    return false
  end
  for _, f in ipairs(filters) do
    if matches(f, topic) then
      return true
    end
  end
  return false
end
local holder = redis.call('GET', KEYS[1])
if holder and (ARGV[1] == '' or holder ~= ARGV[1]) then
  return {-1, redis.call('PTTL', KEYS[1])}
end
local moved = 0
local dropped = 0
if redis.call('HEXISTS', KEYS[4], 'created') == 1 then
  local entries = redis.call('XRANGE', KEYS[2], '-', '+')
  for _, entry in ipairs(entries) do
    local fields = entry[2]
    local covered = false
    local topic = ''
    local position = nil
    for j = 1, #fields - 1, 2 do
      if fields[j] == 's' then
        position = fields[j + 1]
        local c = redis.call('HGET', KEYS[5], position)
        covered = c ~= false and string.sub(c, 1, 1) == 'h'
      elseif fields[j] == 't' then
        topic = fields[j + 1]
      end
    end
    if not covered and position ~= nil then
      covered = replayed(topic, position)
    end
    if covered then
      dropped = dropped + 1
    else
      local seq = redis.call('HINCRBY', KEYS[4], 'seq', 1)
      redis.call('XADD', KEYS[3], '0-' .. seq, unpack(fields))
      moved = moved + 1
    end
  end
end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('PEXPIRE', KEYS[5], ARGV[2])
return {moved, dropped, tonumber(redis.call('HGET', KEYS[4], 'seq') or '0')}
