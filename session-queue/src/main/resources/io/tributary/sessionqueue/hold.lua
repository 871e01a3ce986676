-- A replay for a queue-backed session holds its queue: from now on append.lua diverts new entries to the hold stream,
-- so the replayed history can be appended to the queue before them (append-history.lua, then release-hold.lua).
-- KEYS: hold key, queue stream, meta hash, covered hash, hold stream. ARGV: token, time to live in ms (crash safety:
-- a hold whose replay died ends by itself).
-- Records each entry in the queue in the covered hash as 'q<seq>': a history entry at the same position takes its
-- place, in history order, while it has not been handed out; once handed out, the history leaves it out.
-- Returns 1 (held), 0 (held already, or an expired hold not released yet), -1 (no queue: the session is gone).
if redis.call('HEXISTS', KEYS[3], 'created') == 0 then
  return -1
end
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[5]) == 1 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local entries = redis.call('XRANGE', KEYS[2], '-', '+')
for _, entry in ipairs(entries) do
  local fields = entry[2]
  for j = 1, #fields - 1, 2 do
    if fields[j] == 's' then
      redis.call('HSET', KEYS[4], fields[j + 1], 'q' .. string.sub(entry[1], 3))
    end
  end
end
redis.call('PEXPIRE', KEYS[4], ARGV[2])
return 1
