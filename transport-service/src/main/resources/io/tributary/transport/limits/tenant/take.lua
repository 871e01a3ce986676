-- Takes tokens of a tenant's quota for the current one-second window of Redis's clock (transport limits.tenant).
-- KEYS[1]: the quota's key prefix; the window's counter is KEYS[1]:<unix second>, gone two seconds after its window.
-- ARGV[1]: the quota per window; ARGV[2]: tokens wanted; ARGV[3]: tokens the node spent on credit (always recorded).
-- Returns {granted, microseconds left in the window}: granted = min(wanted, quota - used - owed), at least 0.
if redis.replicate_commands then
  redis.replicate_commands()
end
local now = redis.call('TIME')
local key = KEYS[1] .. ':' .. now[1]
local limit = tonumber(ARGV[1])
local want = tonumber(ARGV[2])
local owed = tonumber(ARGV[3])
local used = tonumber(redis.call('GET', key) or '0')
local granted = limit - used - owed
if granted > want then
  granted = want
end
if granted < 0 then
  granted = 0
end
if granted + owed > 0 then
  redis.call('INCRBY', key, granted + owed)
  redis.call('EXPIRE', key, 3)
end
return {granted, 1000000 - tonumber(now[2])}
