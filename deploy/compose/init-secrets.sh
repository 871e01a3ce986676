#!/usr/bin/env bash
# Generates the secrets docker-compose.yml reads, once, like k8s/aws/scripts/install.sh does for the cluster: one
# env file per secret in deploy/compose/secrets/ (git-ignored, readable by you only), read by the services through
# env_file. A file that exists is kept, so running it again changes nothing; delete one to generate it anew.
#
#   deploy/compose/init-secrets.sh                          # random values; prints the first admin's password once
#   TRIBUTARY_ADMIN_PASSWORD=... deploy/compose/init-secrets.sh   # or POSTGRES_PASSWORD, TRIBUTARY_ADMIN_USER,
#                                                                 # TRIBUTARY_INTERNAL_<TRANSPORT|ROUTING>_TOKEN,
#                                                                 # REDIS_PASSWORD,
#                                                                 # KAFKA_<ADMIN|TRANSPORT|ROUTING|SESSION>_PASSWORD: yours
#                                                                 # instead of random
#
#   postgres.env  POSTGRES_PASSWORD (PostgreSQL and session-service). PostgreSQL takes it when its data volume is
#                 created: for an existing volume give the password it was created with (docs/deploy.md).
#   internal-transport.env  TRIBUTARY_INTERNAL_TRANSPORT_TOKEN, internal-routing.env TRIBUTARY_INTERNAL_ROUTING_TOKEN:
#                 the internal API's token of each calling role. session-service reads both; a transport node reads
#                 only the first and a router only the second, each presenting it as its TRIBUTARY_INTERNAL_TOKEN
#                 (docker-compose.yml names it as ${TRIBUTARY_INTERNAL_<ROLE>_TOKEN}, which Spring puts in at start-up).
#                 A role's token may call that role's endpoints only. Hex.
#   admin.env     TRIBUTARY_ADMIN_USER / TRIBUTARY_ADMIN_PASSWORD (the first REST API admin, created when none exists)
#   redis.env     REDIS_PASSWORD (Redis's requirepass; every service's REDIS_URL names it). Hex, as it goes into a
#                 URL unescaped: one of yours must be URL-safe too. Redis reads it at every start, so a new one takes
#                 effect with docker compose up -d (all services are recreated with it).
#   kafka-admin.env      KAFKA_ADMIN_PASSWORD (the Kafka broker's own principal, PLAIN: inter-broker, controller, the
#                        kafka-setup service; the only super user)
#   kafka-transport.env  KAFKA_TRANSPORT_PASSWORD, kafka-routing.env KAFKA_ROUTING_PASSWORD, kafka-session.env
#                        KAFKA_SESSION_PASSWORD: each service's SCRAM-SHA-512 user, which kafka-setup creates (again at
#                        every up, so a new password takes effect with docker compose up -d). Hex: they go into a JAAS
#                        line between double quotes.
#
# SECRETS_DIR writes elsewhere (the deploy-tests use it; docker-compose.yml reads deploy/compose/secrets/).
set -euo pipefail

dir="${SECRETS_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/secrets}"
umask 077
mkdir -p "$dir"

random() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }

# secret_file NAME "KEY=value"...: writes the lines into NAME unless it exists.
secret_file() {
  local file="$dir/$1"
  shift
  if [[ -e "$file" ]]; then
    echo "init-secrets: kept $file"
  else
    printf '%s\n' "$@" > "$file.tmp"
    mv "$file.tmp" "$file"
    echo "init-secrets: wrote $file"
  fi
}

admin_written=false
[[ -e "$dir/admin.env" ]] || admin_written=true
admin_password="${TRIBUTARY_ADMIN_PASSWORD:-$(random 18)}"

secret_file postgres.env "POSTGRES_PASSWORD=${POSTGRES_PASSWORD:-$(random 24)}"
secret_file internal-transport.env \
  "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN=${TRIBUTARY_INTERNAL_TRANSPORT_TOKEN:-$(random 24)}"
secret_file internal-routing.env "TRIBUTARY_INTERNAL_ROUTING_TOKEN=${TRIBUTARY_INTERNAL_ROUTING_TOKEN:-$(random 24)}"
secret_file admin.env "TRIBUTARY_ADMIN_USER=${TRIBUTARY_ADMIN_USER:-admin}" "TRIBUTARY_ADMIN_PASSWORD=$admin_password"
secret_file redis.env "REDIS_PASSWORD=${REDIS_PASSWORD:-$(random 24)}"
secret_file kafka-admin.env "KAFKA_ADMIN_PASSWORD=${KAFKA_ADMIN_PASSWORD:-$(random 24)}"
secret_file kafka-transport.env "KAFKA_TRANSPORT_PASSWORD=${KAFKA_TRANSPORT_PASSWORD:-$(random 24)}"
secret_file kafka-routing.env "KAFKA_ROUTING_PASSWORD=${KAFKA_ROUTING_PASSWORD:-$(random 24)}"
secret_file kafka-session.env "KAFKA_SESSION_PASSWORD=${KAFKA_SESSION_PASSWORD:-$(random 24)}"

# Before one token per calling role, one internal.env held the token every service shared: nothing reads it now.
if [[ -e "$dir/internal.env" ]]; then
  echo "init-secrets: $dir/internal.env (the former shared TRIBUTARY_INTERNAL_TOKEN) is no longer read: delete it"
fi

if [[ "$admin_written" == true && -z "${TRIBUTARY_ADMIN_PASSWORD:-}" ]]; then
  echo "init-secrets: REST API admin: ${TRIBUTARY_ADMIN_USER:-admin} / $admin_password (in $dir/admin.env)"
fi
