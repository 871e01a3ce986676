#!/usr/bin/env bash
# Times the admin API endpoints the console uses against a quick start (its HTTP_PORT as $1, default 8080), after
# seed-1m-sessions.sql: one warm-up and 7 runs each, prints the median and the max in ms (curl time_total).
set -euo pipefail
base="http://127.0.0.1:${1:-8080}"
# The quick start's first admin: its password is generated into DATA_DIR/admin-password (default ./data).
password="${TRIBUTARY_ADMIN_PASSWORD:-$(cat "${DATA_DIR:-data}/admin-password")}"
TOKEN=$(curl -s -X POST "$base/api/v1/admin/tokens" -H 'Content-Type: application/json' \
  -d "{\"username\":\"admin\",\"password\":\"$password\"}" | sed 's/.*"token":"\([^"]*\)".*/\1/')
time_of() {
  local path="$1" times=()
  curl -s -o /dev/null -H "Authorization: Bearer $TOKEN" "$base$path"   # warm-up
  for _ in 1 2 3 4 5 6 7; do
    times+=("$(curl -s -o /dev/null -w '%{time_total}' -H "Authorization: Bearer $TOKEN" "$base$path")")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v p="$path" '{a[NR]=$1*1000} END {printf "%-95s median %6.1f ms  max %6.1f ms\n", p, a[4], a[7]}'
}
time_of '/api/v1/search/sessions?limit=50'
time_of '/api/v1/search/sessions?limit=50&after=bench%2F7f%2F0500000'
time_of '/api/v1/search/sessions?clientIdPrefix=bench%2Fa3%2F&limit=50'
time_of '/api/v1/search/sessions?clientIdPrefix=bench%2Fa3%2F&limit=50&after=bench%2Fa3%2F0500000'
time_of '/api/v1/search/sessions?username=user-417&limit=50'
time_of '/api/v1/search/sessions?nodeId=bench-node-2&limit=50'
time_of '/api/v1/search/sessions?nodeId=bench-node-2&limit=50&after=bench%2Fc0%2F0000000'
time_of '/api/v1/search/sessions?connected=false&limit=50'
time_of '/api/v1/search/sessions?clientIdPrefix=bench%2Fff%2F099&connected=true&limit=1000'
time_of '/api/v1/search/subscriptions?limit=50'
time_of '/api/v1/search/subscriptions?filterPrefix=bench%2F4242%2Fcmd&limit=50'
time_of '/api/v1/search/subscriptions?filterPrefix=%24share%2Fgrp-42%2F&limit=50'
time_of '/api/v1/search/subscriptions?filterPrefix=%24share%2F&limit=50&afterFilter=%24share%2Fgrp-5%2Fbench%2Fdata&afterClientId=bench%2F80%2F0000000'
time_of '/api/v1/search/subscriptions?clientId=bench%2Fc4%2F0000001'
time_of '/api/v1/sessions/bench%2Fc4%2F0000001'
time_of '/api/v1/sessions/bench%2Fc4%2F0000001/subscriptions'
time_of '/api/v1/retained?prefix=meters%2F&page=0&size=50'
time_of '/api/v1/auth/credentials?page=0&size=50'
time_of '/api/v1/sessions?page=0&size=50'
time_of '/api/v1/sessions?page=10000&size=50'
# The overview is cached for CONSOLE_OVERVIEW_CACHE (2 s): wait it out before each run so every run reads afresh.
times=()
for _ in 1 2 3 4 5 6 7; do
  sleep 2.2
  times+=("$(curl -s -o /dev/null -w '%{time_total}' -H "Authorization: Bearer $TOKEN" "$base/api/v1/overview")")
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1*1000} END {printf "%-95s median %6.1f ms  max %6.1f ms\n", "/api/v1/overview (uncached)", a[4], a[7]}'
time_of '/api/v1/kafka/topics'
time_of '/api/v1/kafka/groups'
