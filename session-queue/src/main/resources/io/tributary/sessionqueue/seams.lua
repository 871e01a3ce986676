-- Put in front of append.lua and release-hold.lua (LuaScript): a replay's seam is its filters and the publish end
-- offsets it read its history up to. A routed entry below its partition's end offset on a topic one of the filters
-- matches belongs to that history (which has it, or did not ask for it), as a live delivery below the end offsets does
-- for a replay without a queue. The last seams stay in the covered hash (field '~seams', JSON) as long as it does.
local function tributary_split(s)
  local parts = {}
  local from = 1
  while true do
    local slash = string.find(s, '/', from, true)
    if not slash then
      parts[#parts + 1] = string.sub(s, from)
      return parts
    end
    parts[#parts + 1] = string.sub(s, from, slash - 1)
    from = slash + 1
  end
end
-- MQTT topic filter matching, as common's TopicFilters.matches: '+' one level, '#' the rest (and the parent), no
-- wildcard first level for a '$' topic.
local function tributary_matches(filter, topic)
  local f = tributary_split(filter)
  local t = tributary_split(topic)
  if string.sub(topic, 1, 1) == '$' and (f[1] == '+' or f[1] == '#') then
    return false
  end
  for i = 1, #f do
    if f[i] == '#' then
      return true
    end
    if i > #t or (f[i] ~= '+' and f[i] ~= t[i]) then
      return false
    end
  end
  return #f == #t
end
local function tributary_in_seams(seams, topic, position)
  local colon = string.find(position, ':', 1, true)
  local partition = string.sub(position, 1, colon - 1)
  local offset = tonumber(string.sub(position, colon + 1))
  for _, seam in ipairs(seams) do
    local e = seam.e[partition]
    if e ~= nil and offset < e then
      for _, filter in ipairs(seam.f) do
        if tributary_matches(filter, topic) then
          return true
        end
      end
    end
  end
  return false
end
local function tributary_seams(covered)
  local raw = redis.call('HGET', covered, '~seams')
  if not raw then
    return {}
  end
  return cjson.decode(raw)
end
