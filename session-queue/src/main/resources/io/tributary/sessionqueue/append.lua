-- Appends the messages of one publish partition (in offset order) to one session queue.
-- KEYS: queue stream, meta hash, hold key, hold stream, covered hash. ARGV: the partition's meta field
-- ('p<partition>'), limit (messages), policy ('oldest' | 'newest'), byte budget (queue-bytes.lua's bytes), then five
-- per message: offset, topic, payload, encoded headers, share groups ('' when none). Every entry carries its publish
-- position 's' = '<partition>:<offset>'.
-- While a replay holds the queue (hold key set, or its hold stream not yet moved back), entries go to the hold stream,
-- moved behind the replayed history by release-hold.lua. A position a replay's history already put into the queue
-- (covered hash value 'h...'), or one inside a recent replay's seam (seams.lua), is not appended: a router lagging
-- behind the replay.
-- Both limits count the queue and hold streams together. When a message does not fit, 'newest' refuses it, 'oldest'
-- drops the oldest entries until it fits; a message larger than the whole budget is refused by both (dropping the
-- queue for it would not make it fit). Every drop and refusal adds to 'dropped'.
-- Returns four numbers per message: a kind, a sequence, the drops it caused, how many of them the byte budget caused.
-- Kinds: 1 appended at the sequence; 2 appended before, or in a replay's history (the queue's last sequence);
-- 3 held behind a replay (the last sequence, at least 1); 4 refused (sequence 0, 1 drop: itself).
-- Or a single 0 when the session has no queue ('created' missing).
if redis.call('HEXISTS', KEYS[2], 'created') == 0 then
  return {0}
end
local limit = tonumber(ARGV[2])
local budget = tonumber(ARGV[4])
local partition = string.sub(ARGV[1], 2)
local last = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '-1')
local seams = tributary_seams(KEYS[5])
local held = redis.call('EXISTS', KEYS[3]) == 1 or redis.call('EXISTS', KEYS[4]) == 1
local length = redis.call('XLEN', KEYS[1]) + redis.call('XLEN', KEYS[4])
local bytes = tributary_queue_bytes(KEYS[2], KEYS[1], KEYS[4])
local out = {}
for i = 5, #ARGV, 5 do
  local offset = tonumber(ARGV[i])
  local position = partition .. ':' .. ARGV[i]
  local covered = false
  if offset > last then
    local c = redis.call('HGET', KEYS[5], position)
    covered = (c ~= false and string.sub(c, 1, 1) == 'h') or tributary_in_seams(seams, ARGV[i + 1], position)
  end
  if offset <= last or covered then
    if offset > last then
      last = offset
      redis.call('HSET', KEYS[2], ARGV[1], ARGV[i])
    end
    out[#out + 1] = 2
    out[#out + 1] = tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')
    out[#out + 1] = 0
    out[#out + 1] = 0
  else
    last = offset
    redis.call('HSET', KEYS[2], ARGV[1], ARGV[i])
    local fields = {'t', ARGV[i + 1], 'p', ARGV[i + 2], 'h', ARGV[i + 3], 's', position}
    if ARGV[i + 4] ~= '' then
      fields[#fields + 1] = 'g'
      fields[#fields + 1] = ARGV[i + 4]
    end
    local size = tributary_entry_bytes(fields)
    local refusedBy = nil
    if length >= limit and ARGV[3] == 'newest' then
      refusedBy = 'count'
    elseif size > budget or (bytes + size > budget and ARGV[3] == 'newest') then
      refusedBy = 'bytes'
    end
    if refusedBy ~= nil then
      redis.call('HINCRBY', KEYS[2], 'dropped', 1)
      out[#out + 1] = 4
      out[#out + 1] = 0
      out[#out + 1] = 1
      out[#out + 1] = refusedBy == 'bytes' and 1 or 0
    else
      local dropped = 0
      if length >= limit then
        dropped = length - limit + 1
        bytes = bytes - tributary_trim_oldest(KEYS[1], KEYS[4], dropped)
        length = limit - 1
      end
      local droppedForBytes = 0
      while bytes + size > budget and length > 0 do
        bytes = bytes - tributary_trim_oldest(KEYS[1], KEYS[4], 1)
        length = length - 1
        droppedForBytes = droppedForBytes + 1
      end
      if length == 0 then
        -- Nothing left: 0 bytes, whatever a counter an older reader let drift said.
        bytes = 0
      end
      dropped = dropped + droppedForBytes
      if dropped > 0 then
        redis.call('HINCRBY', KEYS[2], 'dropped', dropped)
      end
      if held then
        redis.call('XADD', KEYS[4], '*', unpack(fields))
        out[#out + 1] = 3
        out[#out + 1] = math.max(1, tonumber(redis.call('HGET', KEYS[2], 'seq') or '0'))
      else
        local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
        redis.call('XADD', KEYS[1], '0-' .. seq, unpack(fields))
        out[#out + 1] = 1
        out[#out + 1] = seq
      end
      out[#out + 1] = dropped
      out[#out + 1] = droppedForBytes
      length = length + 1
      bytes = bytes + size
    end
  end
end
redis.call('HSET', KEYS[2], 'bytes', bytes)
return out
