-- Appends the messages of one publish partition (in offset order) to one session queue.
-- KEYS: queue stream, meta hash. ARGV: the partition's meta field, limit, policy ('oldest' | 'newest'), then five per
-- message: offset, topic, payload, encoded headers, share groups ('' when none).
-- Returns two numbers per message: sequence and drops (appended), -1 and the last sequence (appended before),
-- -2 and 1 (refused, queue full); or a single 0 when the session has no queue ('created' missing).
if redis.call('HEXISTS', KEYS[2], 'created') == 0 then
  return {0}
end
local limit = tonumber(ARGV[2])
local last = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '-1')
local length = redis.call('XLEN', KEYS[1])
local out = {}
for i = 4, #ARGV, 5 do
  local offset = tonumber(ARGV[i])
  if offset <= last then
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
        redis.call('XTRIM', KEYS[1], 'MAXLEN', limit - 1)
        redis.call('HINCRBY', KEYS[2], 'dropped', dropped)
        length = limit - 1
      end
      local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
      if ARGV[i + 4] == '' then
        redis.call('XADD', KEYS[1], '0-' .. seq, 't', ARGV[i + 1], 'p', ARGV[i + 2], 'h', ARGV[i + 3])
      else
        redis.call('XADD', KEYS[1], '0-' .. seq, 't', ARGV[i + 1], 'p', ARGV[i + 2], 'h', ARGV[i + 3],
            'g', ARGV[i + 4])
      end
      length = length + 1
      out[#out + 1] = seq
      out[#out + 1] = dropped
    end
  end
end
return out
