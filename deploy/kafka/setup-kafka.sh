#!/usr/bin/env bash
# The Kafka side of Tributary's services, run once the brokers answer and again at every deployment (idempotent):
# a SCRAM-SHA-512 user per service with its generated password (kafka-configs.sh, stored in the cluster's
# metadata), then the ACLs of acls.conf (kafka-acls.sh). Runs in the apache/kafka image as the broker's super user
# "admin" (PLAIN). ACLs already present are kept: a line removed from acls.conf is not revoked (kafka-acls.sh
# --remove does that).
#
#   KAFKA_BOOTSTRAP                   the brokers' SASL listener, e.g. kafka:9092
#   KAFKA_ADMIN_PASSWORD              the broker principal's password
#   KAFKA_TRANSPORT_PASSWORD, KAFKA_ROUTING_PASSWORD, KAFKA_SESSION_PASSWORD   the services' SCRAM passwords
#   ACL_FILE                          default: acls.conf next to this script
#   KAFKA_BIN                         default: /opt/kafka/bin
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="${KAFKA_BIN:-/opt/kafka/bin}"
acl_file="${ACL_FILE:-$here/acls.conf}"
: "${KAFKA_BOOTSTRAP:?KAFKA_BOOTSTRAP is not set}"
: "${KAFKA_ADMIN_PASSWORD:?KAFKA_ADMIN_PASSWORD is not set}"

umask 077
config="$(mktemp)"
trap 'rm -f "$config"' EXIT
cat > "$config" <<EOF
security.protocol=SASL_PLAINTEXT
sasl.mechanism=PLAIN
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="$KAFKA_ADMIN_PASSWORD";
EOF
admin=(--bootstrap-server "$KAFKA_BOOTSTRAP" --command-config "$config")

for user in transport routing session; do
  var="KAFKA_${user^^}_PASSWORD"
  password="${!var:?$var is not set}"
  # On the command line of a process of this one-shot container (or Job pod) only: nothing else runs there.
  "$bin/kafka-configs.sh" "${admin[@]}" --alter --entity-type users --entity-name "$user" \
    --add-config "SCRAM-SHA-512=[iterations=8192,password=$password]" > /dev/null
  echo "setup-kafka: SCRAM-SHA-512 user $user"
done

count=0
while read -r principal resource pattern name operations rest; do
  [[ -z "$principal" || "$principal" == \#* ]] && continue
  if [[ -z "$operations" || -n "$rest" ]]; then
    echo "setup-kafka: $acl_file: expected 'principal resource pattern name operations': $principal $resource $pattern $name $operations $rest" >&2
    exit 1
  fi
  ops=()
  IFS=, read -ra list <<< "$operations"
  for op in "${list[@]}"; do ops+=(--operation "$op"); done
  "$bin/kafka-acls.sh" "${admin[@]}" --add --allow-principal "User:$principal" \
    --resource-pattern-type "$pattern" "--$resource" "$name" "${ops[@]}" > /dev/null
  count=$((count + 1))
done < "$acl_file"
echo "setup-kafka: $count ACL lines of $acl_file applied"
