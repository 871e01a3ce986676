#!/usr/bin/env bash
# Builds the three service images and the perf-tests runner image with Jib (no Docker daemon) and pushes them to
# the account's ECR registry, tagged IMAGE_TAG (default: the current commit).
#   IMAGE_TAG=v1 k8s/aws/scripts/build-images.sh
# Base image: the Debian JRE tarball deploy/images/build-base-image.sh writes (needs Linux, root and debootstrap;
# cached in ~/.cache/tributary), or a registry image given as BASE_IMAGE (e.g. eclipse-temurin:17-jre@sha256:...).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
need aws java

reg="$(registry)"
cd "$REPO_ROOT"
log "building (tests skipped: run ./mvnw verify before releasing)"
from=()
if [[ -n ${BASE_IMAGE:-} ]]; then
  from=("-Djib.from.image=$BASE_IMAGE")
else
  "$REPO_ROOT/deploy/images/build-base-image.sh"
fi
./mvnw -B -q -DskipTests -pl common,kafka-support,dev-stack,redis-support,session-queue install
./mvnw -B -q -DskipTests -pl transport-service,routing-service,session-service,perf-tests package

# Jib takes ECR credentials from the docker-credential-ecr-login helper where installed, else from a token.
auth=()
if command -v docker-credential-ecr-login >/dev/null 2>&1; then
  auth=(-Djib.to.credHelper=ecr-login)
else
  auth=(-Djib.to.auth.username=AWS "-Djib.to.auth.password=$(aws ecr get-login-password --region "$AWS_REGION")")
fi
for service in "${SERVICES[@]}"; do
  log "pushing $reg/tributary/$service:$IMAGE_TAG"
  ./mvnw -B -q -pl "$service" jib:build "-Djib.to.image=$reg/tributary/$service:$IMAGE_TAG" "${from[@]}" "${auth[@]}"
done
log "pushing $reg/tributary/perf-tests:$IMAGE_TAG"
./mvnw -B -q -Pimages -pl deploy-tests jib:build "-Djib.to.image=$reg/tributary/perf-tests:$IMAGE_TAG" "${from[@]}" "${auth[@]}"
