-- PUBREC of a queued QoS 2 message: the message leaves the queue (its bytes leave the counter, queue-bytes.lua), its
-- packet id now awaits PUBCOMP.
-- KEYS: queue stream, released set, meta hash. ARGV: entry id, packet id.
tributary_count_bytes(KEYS[3], -tributary_stored_bytes(KEYS[1], ARGV[1]))
redis.call('XDEL', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
return 1
