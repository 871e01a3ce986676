#!/usr/bin/env bash
# Builds and pushes new images (IMAGE_TAG, default: the current commit) and rolls them out: transport nodes one at
# a time, each draining its MQTT connections to the others; routing and session surge one new pod at a time.
#   k8s/aws/scripts/upgrade.sh in-cluster|aws-managed
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

overlay="${1:?usage: upgrade.sh in-cluster|aws-managed}"
"$AWS_DIR/scripts/build-images.sh"
"$AWS_DIR/scripts/install.sh" "$overlay"
