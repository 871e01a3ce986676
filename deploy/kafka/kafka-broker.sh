#!/usr/bin/env bash
# Starts a broker of the apache/kafka image with SASL (issue 34): the broker's own principal "admin" (PLAIN, the
# inter-broker and controller connections, the setup step and the health check) with KAFKA_ADMIN_PASSWORD, the
# services' SCRAM-SHA-512 users (created by setup-kafka.sh, stored in the cluster's metadata). The listeners, the
# authorizer and super.users come from the KAFKA_* environment of docker-compose.yml / the StatefulSet; this writes
# what holds the password, inside the container only: the JAAS file (KafkaServer, one login module per mechanism) and
# the admin client settings for the health check, /tmp/kafka-admin.properties.
set -euo pipefail

: "${KAFKA_ADMIN_PASSWORD:?KAFKA_ADMIN_PASSWORD is not set (compose: deploy/compose/init-secrets.sh; EKS: k8s/aws/scripts/install.sh)}"

umask 077
jaas=/tmp/kafka-server-jaas.conf
cat > "$jaas" <<EOF
KafkaServer {
  org.apache.kafka.common.security.plain.PlainLoginModule required
    username="admin" password="$KAFKA_ADMIN_PASSWORD" user_admin="$KAFKA_ADMIN_PASSWORD";
  org.apache.kafka.common.security.scram.ScramLoginModule required;
};
EOF
cat > /tmp/kafka-admin.properties <<EOF
security.protocol=SASL_PLAINTEXT
sasl.mechanism=PLAIN
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="$KAFKA_ADMIN_PASSWORD";
EOF
export KAFKA_OPTS="${KAFKA_OPTS:-} -Djava.security.auth.login.config=$jaas"
# The image turns every KAFKA_* variable into a broker property: the password must not become one.
unset KAFKA_ADMIN_PASSWORD
exec /etc/kafka/docker/run
