-- Appends replayed history (in order) to a held session queue.
-- KEYS: hold key, queue stream, meta hash, covered hash. ARGV: token, then four per message: position
-- ('<partition>:<offset>'), topic, payload, encoded headers.
-- A position this replay appended already is skipped (a batch sent again); one still waiting unsent in the queue
-- ('q<seq>' above 'sent') leaves its place there for this one; one already handed out to the client is skipped.
-- The queue's byte counter (queue-bytes.lua) follows; the budget is not applied here, as the count limit is not: the
-- history is bounded by the replay's own limits, and the next routed append drops or refuses by the policy.
-- Returns the number appended, or -1 when the queue is not held by this token (the hold expired: the replay failed).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return -1
end
local sent = tonumber(redis.call('HGET', KEYS[3], 'sent') or '0')
local mark = 'h' .. ARGV[1]
local appended = 0
local added = 0
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
      added = added - tributary_stored_bytes(KEYS[2], '0-' .. queued)
      redis.call('XDEL', KEYS[2], '0-' .. queued)
    end
  end
  if take then
    local seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
    local fields = {'t', ARGV[i + 1], 'p', ARGV[i + 2], 'h', ARGV[i + 3], 's', position}
    redis.call('XADD', KEYS[2], '0-' .. seq, unpack(fields))
    added = added + tributary_entry_bytes(fields)
    redis.call('HSET', KEYS[4], position, mark)
    appended = appended + 1
  end
end
tributary_count_bytes(KEYS[3], added)
return appended
