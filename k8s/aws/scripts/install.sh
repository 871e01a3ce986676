#!/usr/bin/env bash
# Installs (or updates) Tributary in the cluster with the images of IMAGE_TAG.
#   k8s/aws/scripts/install.sh in-cluster     Kafka, PostgreSQL, Redis in the cluster (overlays/in-cluster)
#   k8s/aws/scripts/install.sh aws-managed    MSK, RDS, ElastiCache (overlays/aws-managed; run managed-backends.sh first)
# The PostgreSQL password lives only in the secret tributary-postgres: generated for in-cluster, taken from
# POSTGRES_PASSWORD for aws-managed.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
need aws kubectl

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

# The internal API's shared secret (session-service and every transport node), generated once.
if ! kubectl -n "$NAMESPACE" get secret tributary-internal >/dev/null 2>&1; then
  kubectl -n "$NAMESPACE" create secret generic tributary-internal \
    --from-literal=TRIBUTARY_INTERNAL_TOKEN="$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
fi

dir="$(render_with_images "overlays/$overlay" "$overlay")"
log "applying $overlay with images tagged $IMAGE_TAG"
kubectl apply -k "$dir"

# A rolling update of the StatefulSet replaces one transport pod at a time, each drained (preStop, DISCONNECT 0x8B).
for workload in statefulset/transport deployment/session deployment/routing; do
  kubectl -n "$NAMESPACE" rollout status "$workload" --timeout=20m
done
host="$(kubectl -n "$NAMESPACE" get service transport-mqtt -o jsonpath='{.status.loadBalancer.ingress[0].hostname}')"
log "MQTT: ${host:-<NLB still provisioning: kubectl -n $NAMESPACE get service transport-mqtt>}:1883"
