-- Appends replayed history (in order) to a held session queue.
-- KEYS: hold key, queue stream, meta hash, covered hash. ARGV: token, then four per message: position
-- ('<partition>:<offset>'), topic, payload, encoded headers.
-- A position this replay appended already is skipped (a batch sent again); one still waiting unsent in the queue
-- ('q<seq>' above 'sent') leaves its place there for this one; one already handed out to the client is skipped.
-- Returns the number appended, or -1 when the queue is not held by this token (the hold expired: the replay failed).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return -1
end
local sent = tonumber(redis.call('HGET', KEYS[3], 'sent') or '0')
local mark = 'h' .. ARGV[1]
local appended = 0
for i = 2, #ARGV, 4 do
  local position = ARGV[i]
  local c = redis.call('HGET', KEYS[4], position)
  local take = true
  if c == mark then
    take = false
  elseif c ~= false and string.sub(c, 1, 1) == 'q' then
    local queued = tonumber(string.sub(c, 2))
    if queued <= sent then
      take = false
    else
      redis.call('XDEL', KEYS[2], '0-' .. queued)
    end
  end
  if take then
    local seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
    redis.call('XADD', KEYS[2], '0-' .. seq, 't', ARGV[i + 1], 'p', ARGV[i + 2], 'h', ARGV[i + 3], 's', position)
    redis.call('HSET', KEYS[4], position, mark)
    appended = appended + 1
  end
end
return appended
