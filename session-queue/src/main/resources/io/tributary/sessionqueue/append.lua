-- Appends the messages of one publish partition (in offset order) to one session queue.
-- KEYS: queue stream, meta hash, hold key, hold stream, covered hash. ARGV: the partition's meta field ('p<partition>'),
-- limit, policy ('oldest' | 'newest'), then five per message: offset, topic, payload, encoded headers, share groups
-- ('' when none). Every entry carries its publish position 's' = '<partition>:<offset>'.
-- While a replay holds the queue (hold key set, or its hold stream not yet moved back), entries go to the hold stream,
-- moved behind the replayed history by release-hold.lua. A position a replay's history already put into the queue
-- (covered hash value 'h...'), or one inside a recent replay's seam (seams.lua), is not appended: a router lagging
-- behind the replay.
-- Returns two numbers per message: sequence and drops (appended), -1 and the last sequence (appended before, or in a
-- replay's history), -2 and 1 (refused, queue full), -3 and the last sequence (at least 1: held behind a replay);
-- or a single 0 when the session has no queue ('created' missing).
if redis.call('HEXISTS', KEYS[2], 'created') == 0 then
  return {0}
end
local limit = tonumber(ARGV[2])
local partition = string.sub(ARGV[1], 2)
local last = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '-1')
local seams = tributary_seams(KEYS[5])
local held = redis.call('EXISTS', KEYS[3]) == 1 or redis.call('EXISTS', KEYS[4]) == 1
local length = redis.call('XLEN', KEYS[1]) + redis.call('XLEN', KEYS[4])
local out = {}
for i = 4, #ARGV, 5 do
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
    out[#out + 1] = -1
    out[#out + 1] = tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')
  else
    last = offset
    redis.call('HSET', KEYS[2], ARGV[1], ARGV[i])
    if length >= limit and ARGV[3] == 'newest' then
      redis.call('HINCRBY', KEYS[2], 'dropped', 1)
      out[#out + 1] = -2
      out[#out + 1] = 1
    else
      local dropped = 0
      if length >= limit then
        dropped = length - limit + 1
        local queued = redis.call('XLEN', KEYS[1])
        if queued >= dropped then
          redis.call('XTRIM', KEYS[1], 'MAXLEN', queued - dropped)
        else
          redis.call('XTRIM', KEYS[1], 'MAXLEN', 0)
          redis.call('XTRIM', KEYS[4], 'MAXLEN', redis.call('XLEN', KEYS[4]) - (dropped - queued))
        end
        redis.call('HINCRBY', KEYS[2], 'dropped', dropped)
        length = limit - 1
      end
      local fields = {'t', ARGV[i + 1], 'p', ARGV[i + 2], 'h', ARGV[i + 3], 's', position}
      if ARGV[i + 4] ~= '' then
        fields[#fields + 1] = 'g'
        fields[#fields + 1] = ARGV[i + 4]
      end
      if held then
        redis.call('XADD', KEYS[4], '*', unpack(fields))
        out[#out + 1] = -3
        out[#out + 1] = math.max(1, tonumber(redis.call('HGET', KEYS[2], 'seq') or '0'))
      else
        local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
        redis.call('XADD', KEYS[1], '0-' .. seq, unpack(fields))
        out[#out + 1] = seq
        out[#out + 1] = dropped
      end
      length = length + 1
    end
  end
end
return out
