-- PUBREC of a queued QoS 2 message: the message leaves the queue, its packet id now awaits PUBCOMP.
-- KEYS: queue stream, released set. ARGV: entry id, packet id.
redis.call('XDEL', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
return 1
