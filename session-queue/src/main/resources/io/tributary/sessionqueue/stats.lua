-- Length, drops and last sequence read in one step: read one after the other while routing appends, the length
-- could lag the sequence and show acknowledged-looking gaps that are not there.
-- KEYS: queue stream, meta hash. ARGV: 'dropped', 'seq'.
local meta = redis.call('HMGET', KEYS[2], ARGV[1], ARGV[2])
return {redis.call('XLEN', KEYS[1]), meta[1], meta[2]}
