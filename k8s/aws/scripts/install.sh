#!/usr/bin/env bash
# Installs (or updates) Tributary in the cluster with the images of IMAGE_TAG, through the Helm chart
# k8s/helm/tributary (release "tributary"; docs/deploy.md, "Helm chart").
#   k8s/aws/scripts/install.sh in-cluster     Kafka, PostgreSQL, Redis in the cluster (the chart's defaults)
#   k8s/aws/scripts/install.sh aws-managed    MSK, RDS, ElastiCache (values-aws-managed.yaml with the endpoints of
#                                             overlays/aws-managed/*.env; run managed-backends.sh first)
# The PostgreSQL password lives only in the secret tributary-postgres: generated for in-cluster, taken from
# POSTGRES_PASSWORD for aws-managed; the Redis password only in tributary-redis (generated for in-cluster); the
# in-cluster Kafka's passwords only in tributary-kafka-users.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
need aws kubectl helm

overlay="${1:-in-cluster}"
case "$overlay" in
  in-cluster) ;;
  aws-managed)
    if grep -q replace-me "$AWS_DIR/overlays/aws-managed/kafka.env" "$AWS_DIR/overlays/aws-managed/session-stores.env"; then
      die "overlays/aws-managed/*.env still hold placeholders: run k8s/aws/scripts/managed-backends.sh first"
    fi
    ;;
  *) die "usage: install.sh in-cluster|aws-managed" ;;
esac

kubectl apply -f "$AWS_DIR/base/namespace.yaml"
if ! kubectl -n "$NAMESPACE" get secret tributary-postgres >/dev/null 2>&1; then
  if [[ "$overlay" == in-cluster ]]; then
    password="${POSTGRES_PASSWORD:-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')}"
  else
    password="${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD to the RDS password of the tributary user}"
  fi
  kubectl -n "$NAMESPACE" create secret generic tributary-postgres --from-literal=POSTGRES_PASSWORD="$password"
fi
# The first admin of the REST API (session-service creates it when no admin exists). The password is generated
# unless TRIBUTARY_ADMIN_PASSWORD is set, and printed once; read it later from the secret.
if ! kubectl -n "$NAMESPACE" get secret tributary-admin >/dev/null 2>&1; then
  admin_password="${TRIBUTARY_ADMIN_PASSWORD:-$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')}"
  kubectl -n "$NAMESPACE" create secret generic tributary-admin \
    --from-literal=TRIBUTARY_ADMIN_USER="${TRIBUTARY_ADMIN_USER:-admin}" \
    --from-literal=TRIBUTARY_ADMIN_PASSWORD="$admin_password"
  log "REST API admin: ${TRIBUTARY_ADMIN_USER:-admin} / $admin_password (secret tributary-admin)"
fi

# The internal API's tokens, one per calling role (session-service reads both, a transport node only
# TRIBUTARY_INTERNAL_TRANSPORT_TOKEN, a router only TRIBUTARY_INTERNAL_ROUTING_TOKEN), generated once unless set. A
# secret from before them holds the one shared TRIBUTARY_INTERNAL_TOKEN, which session-service no longer takes: it is
# replaced (the pods roll with the chart upgrade below; until then old and new pods refuse each other's calls).
routing_token="$(kubectl -n "$NAMESPACE" get secret tributary-internal \
  -o jsonpath='{.data.TRIBUTARY_INTERNAL_ROUTING_TOKEN}' 2>/dev/null || true)"
if [[ -z "$routing_token" ]]; then
  kubectl -n "$NAMESPACE" delete secret tributary-internal --ignore-not-found >/dev/null
  internal_random() { head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
  kubectl -n "$NAMESPACE" create secret generic tributary-internal \
    --from-literal=TRIBUTARY_INTERNAL_TRANSPORT_TOKEN="${TRIBUTARY_INTERNAL_TRANSPORT_TOKEN:-$(internal_random)}" \
    --from-literal=TRIBUTARY_INTERNAL_ROUTING_TOKEN="${TRIBUTARY_INTERNAL_ROUTING_TOKEN:-$(internal_random)}"
fi

# The Redis password: the in-cluster Redis's requirepass, generated once unless REDIS_PASSWORD is set; every service
# reads it for REDIS_URL, which names it as ${REDIS_PASSWORD}. Hex, as it goes into a URL unescaped. For aws-managed
# only when REDIS_PASSWORD is given (an ElastiCache AUTH token, with a REDIS_URL naming ${REDIS_PASSWORD}).
if ! kubectl -n "$NAMESPACE" get secret tributary-redis >/dev/null 2>&1; then
  if [[ "$overlay" == in-cluster || -n "${REDIS_PASSWORD:-}" ]]; then
    redis_password="${REDIS_PASSWORD:-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')}"
    kubectl -n "$NAMESPACE" create secret generic tributary-redis --from-literal=REDIS_PASSWORD="$redis_password"
  fi
fi

# The in-cluster Kafka's passwords (issue 34): its own principal (the only super user) and one SCRAM-SHA-512 user per
# service, generated once unless KAFKA_<ADMIN|TRANSPORT|ROUTING|SESSION>_PASSWORD is set. The Job kafka-setup-<n>
# creates the users and the ACLs of deploy/kafka/acls.conf at every install and upgrade. Hex: they go into a JAAS
# line between double quotes.
if [[ "$overlay" == in-cluster ]] && ! kubectl -n "$NAMESPACE" get secret tributary-kafka-users >/dev/null 2>&1; then
  kafka_random() { head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
  kubectl -n "$NAMESPACE" create secret generic tributary-kafka-users \
    --from-literal=KAFKA_ADMIN_PASSWORD="${KAFKA_ADMIN_PASSWORD:-$(kafka_random)}" \
    --from-literal=KAFKA_TRANSPORT_PASSWORD="${KAFKA_TRANSPORT_PASSWORD:-$(kafka_random)}" \
    --from-literal=KAFKA_ROUTING_PASSWORD="${KAFKA_ROUTING_PASSWORD:-$(kafka_random)}" \
    --from-literal=KAFKA_SESSION_PASSWORD="${KAFKA_SESSION_PASSWORD:-$(kafka_random)}"
fi

chart="$REPO_ROOT/k8s/helm/tributary"
values="$BUILD_DIR/values-$overlay.yaml"
mkdir -p "$BUILD_DIR"
{
  echo "image:"
  echo "  repository: \"$(registry)/tributary\""
  echo "  tag: \"$IMAGE_TAG\""
  if [[ "$overlay" == aws-managed ]]; then
    # The endpoints managed-backends.sh wrote (KEY=value lines), as chart values.
    env_value() { sed -n "s/^$1=//p" "$AWS_DIR/overlays/aws-managed/$2"; }
    echo "kafka:"
    echo "  bootstrapServers: \"$(env_value KAFKA_BOOTSTRAP_SERVERS kafka.env)\""
    echo "postgres:"
    echo "  url: \"$(env_value POSTGRES_URL session-stores.env)\""
    echo "  user: \"$(env_value POSTGRES_USER session-stores.env)\""
    echo "redis:"
    echo "  url: \"$(env_value REDIS_URL session-stores.env)\""
  fi
} > "$values"
managed_values=()
[[ "$overlay" == aws-managed ]] && managed_values=(-f "$chart/values-aws-managed.yaml")

# Objects an earlier install applied from the kustomize overlays (kubectl, same names) are adopted by the
# release: Helm takes over existing objects that carry its ownership label and annotations, and refuses others.
if ! helm -n "$NAMESPACE" status tributary >/dev/null 2>&1; then
  helm template tributary "$chart" --namespace "$NAMESPACE" ${managed_values[@]+"${managed_values[@]}"} -f "$values" \
    | kubectl -n "$NAMESPACE" get -f - -o name --ignore-not-found 2>/dev/null \
    | while read -r object; do
        log "adopting $object into the Helm release"
        kubectl -n "$NAMESPACE" label "$object" app.kubernetes.io/managed-by=Helm --overwrite >/dev/null
        kubectl -n "$NAMESPACE" annotate "$object" meta.helm.sh/release-name=tributary \
          meta.helm.sh/release-namespace="$NAMESPACE" --overwrite >/dev/null
      done || true
fi

log "installing the chart ($overlay) with images tagged $IMAGE_TAG"
# The Job kafka-setup (the in-cluster Kafka's users and ACLs) runs once; deleted here, Helm creates it again, so every
# install and upgrade applies deploy/kafka/acls.conf and the passwords of tributary-kafka-users anew.
kubectl -n "$NAMESPACE" delete job kafka-setup --ignore-not-found >/dev/null
helm upgrade --install tributary "$chart" --namespace "$NAMESPACE" ${managed_values[@]+"${managed_values[@]}"} -f "$values"

# A rolling update of the StatefulSet replaces one transport pod at a time, each drained (preStop, DISCONNECT 0x8B).
for workload in statefulset/transport deployment/session deployment/routing; do
  kubectl -n "$NAMESPACE" rollout status "$workload" --timeout=20m
done
host="$(kubectl -n "$NAMESPACE" get service transport-mqtt -o jsonpath='{.status.loadBalancer.ingress[0].hostname}')"
# The ports (MQTT over TLS only, 8883, by default) and the certificate's CA for devices: the release's notes.
log "MQTT: ${host:-<NLB still provisioning: kubectl -n $NAMESPACE get service transport-mqtt>}; ports and TLS CA: helm -n $NAMESPACE get notes tributary"
