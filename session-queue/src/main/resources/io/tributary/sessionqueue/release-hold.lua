-- Ends a replay's hold of a session queue: the hold stream's entries move behind the history, except those whose
-- position a replay's history appended (the seam's duplicates); the covered hash stays for ARGV[2] ms, so a router
-- lagging behind the replay appends none of them again.
-- KEYS: hold key, hold stream, queue stream, meta hash, covered hash. ARGV: token ('' = only a hold that expired),
-- covered time to live in ms, the number of replayed filters, the filters, then pairs of publish partition and end
-- offset: a held entry inside that seam (seams.lua) is the history's.
-- Returns {-1, ms left} when another (or, with '', any) replay still holds the queue; otherwise {moved, dropped,
-- last sequence}.
local count = tonumber(ARGV[3] or '0')
local seam = {f = {}, e = {}}
for i = 1, count do
  seam.f[i] = ARGV[3 + i]
end
for i = 4 + count, #ARGV - 1, 2 do
  seam.e[ARGV[i]] = tonumber(ARGV[i + 1])
end
local seams = tributary_seams(KEYS[5])
local holder = redis.call('GET', KEYS[1])
if holder and (ARGV[1] == '' or holder ~= ARGV[1]) then
  return {-1, redis.call('PTTL', KEYS[1])}
end
local moved = 0
local dropped = 0
local freed = 0
if redis.call('HEXISTS', KEYS[4], 'created') == 1 then
  local entries = redis.call('XRANGE', KEYS[2], '-', '+')
  for _, entry in ipairs(entries) do
    local fields = entry[2]
    local covered = false
    local topic = ''
    local position = nil
    for j = 1, #fields - 1, 2 do
      if fields[j] == 's' then
        position = fields[j + 1]
        local c = redis.call('HGET', KEYS[5], position)
        covered = c ~= false and string.sub(c, 1, 1) == 'h'
      elseif fields[j] == 't' then
        topic = fields[j + 1]
      end
    end
    if not covered and position ~= nil then
      covered = tributary_in_seams({seam}, topic, position)
    end
    if covered then
      dropped = dropped + 1
      freed = freed + tributary_entry_bytes(fields)
    else
      local seq = redis.call('HINCRBY', KEYS[4], 'seq', 1)
      redis.call('XADD', KEYS[3], '0-' .. seq, unpack(fields))
      moved = moved + 1
    end
  end
end
if count > 0 then
  -- Remembered with the last 15 others, so a router lagging behind the replay appends none of its history later.
  seams[#seams + 1] = seam
  while #seams > 16 do
    table.remove(seams, 1)
  end
  redis.call('HSET', KEYS[5], '~seams', cjson.encode(seams))
end
redis.call('DEL', KEYS[1], KEYS[2])
-- The moved entries stay counted (the byte counter covers both streams, queue-bytes.lua); the seam duplicates leave.
tributary_count_bytes(KEYS[4], -freed)
redis.call('PEXPIRE', KEYS[5], ARGV[2])
return {moved, dropped, tonumber(redis.call('HGET', KEYS[4], 'seq') or '0')}
