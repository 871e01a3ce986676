#!/usr/bin/env bash
# Creates the EKS cluster (cluster/eksctl.yaml) and what the manifests rely on: the gp3 StorageClass, the AWS Load
# Balancer Controller (NLB for MQTT), metrics-server (CPU autoscaling), the cluster autoscaler (nodes for new
# pods), Prometheus and the Prometheus adapter (connection-based autoscaling), and the ECR repositories.
# Idempotent: run it again to finish an interrupted run.
#   CLUSTER_NAME=tributary AWS_REGION=eu-west-1 k8s/aws/scripts/create-cluster.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
need aws eksctl kubectl helm

if eksctl get cluster --name "$CLUSTER_NAME" --region "$AWS_REGION" >/dev/null 2>&1; then
  log "cluster $CLUSTER_NAME exists in $AWS_REGION"
else
  log "creating cluster $CLUSTER_NAME in $AWS_REGION (15-25 minutes)"
  config="$(mktemp)"
  trap 'rm -f "$config"' EXIT
  sed -e "s/^  name: tributary\$/  name: $CLUSTER_NAME/" -e "s/^  region: .*/  region: $AWS_REGION/" \
    "$AWS_DIR/cluster/eksctl.yaml" > "$config"
  eksctl create cluster -f "$config"
fi
aws eks update-kubeconfig --name "$CLUSTER_NAME" --region "$AWS_REGION"
kubectl apply -f "$AWS_DIR/cluster/storage-class.yaml"

log "Helm charts"
helm repo add eks https://aws.github.io/eks-charts >/dev/null
helm repo add metrics-server https://kubernetes-sigs.github.io/metrics-server/ >/dev/null
helm repo add autoscaler https://kubernetes.github.io/autoscaler >/dev/null
helm repo add prometheus-community https://prometheus-community.github.io/helm-charts >/dev/null
helm repo update >/dev/null

vpc_id="$(aws eks describe-cluster --name "$CLUSTER_NAME" --region "$AWS_REGION" \
  --query cluster.resourcesVpcConfig.vpcId --output text)"
system_pool='nodeSelector.tributary\.io/pool=system'

# The service accounts with their IAM roles were created by eksctl (iam.serviceAccounts in eksctl.yaml).
helm upgrade --install aws-load-balancer-controller eks/aws-load-balancer-controller -n kube-system \
  --set clusterName="$CLUSTER_NAME" --set region="$AWS_REGION" --set vpcId="$vpc_id" \
  --set serviceAccount.create=false --set serviceAccount.name=aws-load-balancer-controller \
  --set "$system_pool" --wait
helm upgrade --install metrics-server metrics-server/metrics-server -n kube-system --set "$system_pool" --wait
helm upgrade --install cluster-autoscaler autoscaler/cluster-autoscaler -n kube-system \
  --set autoDiscovery.clusterName="$CLUSTER_NAME" --set awsRegion="$AWS_REGION" \
  --set rbac.serviceAccount.create=false --set rbac.serviceAccount.name=cluster-autoscaler \
  --set "$system_pool" --wait
helm upgrade --install prometheus prometheus-community/prometheus -n monitoring --create-namespace \
  -f "$AWS_DIR/monitoring/prometheus-values.yaml" --wait
helm upgrade --install prometheus-adapter prometheus-community/prometheus-adapter -n monitoring \
  -f "$AWS_DIR/monitoring/prometheus-adapter-values.yaml" --wait

log "ECR repositories"
for repository in "${SERVICES[@]}" perf-tests; do
  if ! aws ecr describe-repositories --region "$AWS_REGION" --repository-names "tributary/$repository" >/dev/null 2>&1; then
    aws ecr create-repository --region "$AWS_REGION" --repository-name "tributary/$repository" \
      --image-scanning-configuration scanOnPush=true >/dev/null
  fi
done
log "cluster ready; next: k8s/aws/scripts/build-images.sh, then k8s/aws/scripts/install.sh in-cluster"
