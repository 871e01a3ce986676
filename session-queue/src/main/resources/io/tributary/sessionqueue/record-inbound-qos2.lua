-- Adds an inbound QoS 2 packet id only while the session is persistent: a record arriving after session-service
-- deleted the session's keys must not leave an id behind that a later session would take for a duplicate.
-- KEYS: meta hash, inbound QoS 2 set. ARGV: packet id. Returns 1 when recorded, 0 when the session has no queue.
if redis.call('HEXISTS', KEYS[1], 'created') == 0 then
  return 0
end
redis.call('SADD', KEYS[2], ARGV[1])
return 1
