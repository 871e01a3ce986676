#!/usr/bin/env bash
# Settings shared by the k8s/aws scripts (sourced, not run). Every value can be overridden from the environment.
# shellcheck disable=SC2034  # the variables are used by the scripts that source this file
set -euo pipefail

AWS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPO_ROOT="$(cd "$AWS_DIR/../.." && pwd)"
CLUSTER_NAME="${CLUSTER_NAME:-tributary}"
AWS_REGION="${AWS_REGION:-eu-west-1}"
# Fixed: the manifests name it (kustomizations, Kafka's advertised host names).
NAMESPACE=tributary
IMAGE_TAG="${IMAGE_TAG:-$(git -C "$REPO_ROOT" rev-parse --short HEAD 2>/dev/null || echo dev)}"
SERVICES=(transport-service routing-service session-service)
# Rendered kustomizations (image names of this registry and tag); git-ignored.
BUILD_DIR="$AWS_DIR/.build"

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

need() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is not installed (docs/deploy.md, \"Tools\")"
  done
}

# The account's ECR registry in AWS_REGION.
registry() {
  local account
  account="$(aws sts get-caller-identity --query Account --output text)"
  echo "$account.dkr.ecr.$AWS_REGION.amazonaws.com"
}

# Writes $BUILD_DIR/<name>/kustomization.yaml: the given kustomization directory with our images taken from the
# registry at IMAGE_TAG. Prints the directory.
render_with_images() {
  local source="$1" name="$2" reg dir image
  reg="$(registry)"
  dir="$BUILD_DIR/$name"
  mkdir -p "$dir"
  {
    echo "apiVersion: kustomize.config.k8s.io/v1beta1"
    echo "kind: Kustomization"
    echo "resources:"
    echo "  - ../../$source"
    echo "images:"
    for image in "${SERVICES[@]}" perf-tests; do
      echo "  - name: tributary/$image"
      echo "    newName: $reg/tributary/$image"
      echo "    newTag: \"$IMAGE_TAG\""
    done
  } > "$dir/kustomization.yaml"
  echo "$dir"
}
