-- Acknowledged (or never to be delivered) queued messages leave the queue, and their bytes the counter
-- (queue-bytes.lua), in one step.
-- KEYS: queue stream, meta hash. ARGV: entry ids. Returns how many entries were removed (as XDEL does).
-- One XDEL per entry found, right after reading it: an id given twice is subtracted once.
local freed = 0
local removed = 0
for i = 1, #ARGV do
  local found = redis.call('XRANGE', KEYS[1], ARGV[i], ARGV[i])
  if #found == 1 then
    freed = freed + tributary_entry_bytes(found[1][2])
    removed = removed + redis.call('XDEL', KEYS[1], ARGV[i])
  end
end
tributary_count_bytes(KEYS[2], -freed)
return removed
