-- Reads up to ARGV[2] entries from sequence ARGV[1] on and raises 'sent' to the last one, in one step, so that an
-- entry handed out here is known to be possibly delivered by whoever reads the queue next.
-- KEYS: queue stream, meta hash. Returns {sent before this fetch, entries}.
local entries = redis.call('XRANGE', KEYS[1], '0-' .. ARGV[1], '+', 'COUNT', ARGV[2])
local sent = tonumber(redis.call('HGET', KEYS[2], 'sent') or '0')
if #entries > 0 then
  local last = tonumber(string.sub(entries[#entries][1], 3))
  if last > sent then
    redis.call('HSET', KEYS[2], 'sent', last)
  end
end
return {sent, entries}
