#!/usr/bin/env bash
# Deletes Tributary and the cluster. The namespace goes first, so that the load balancer controller, still
# running, removes the NLB; then the Prometheus volumes; then the cluster with its node groups and VPC.
# DELETE_IMAGES=1 also deletes the ECR repositories. Amazon MSK, RDS and ElastiCache are not touched.
#   k8s/aws/scripts/delete.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
need aws eksctl kubectl helm

aws eks update-kubeconfig --name "$CLUSTER_NAME" --region "$AWS_REGION"
log "deleting namespace $NAMESPACE (NLB, in-cluster data volumes)"
kubectl delete namespace "$NAMESPACE" --ignore-not-found --wait --timeout=15m
helm uninstall prometheus-adapter prometheus -n monitoring --ignore-not-found --wait || true
kubectl delete pvc --all -n monitoring --ignore-not-found --wait --timeout=10m || true

log "deleting cluster $CLUSTER_NAME (10-20 minutes)"
eksctl delete cluster --name "$CLUSTER_NAME" --region "$AWS_REGION" --wait

if [[ "${DELETE_IMAGES:-0}" == 1 ]]; then
  for repository in "${SERVICES[@]}" perf-tests; do
    aws ecr delete-repository --region "$AWS_REGION" --repository-name "tributary/$repository" --force >/dev/null || true
  done
fi
rm -rf "$BUILD_DIR"
