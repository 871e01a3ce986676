#!/usr/bin/env bash
# Runs a perf-tests scenario against the cluster: subscribers and publishers as two Jobs on the perf node group,
# then merges their results (perf-tests/bin/perf merge) under perf-results/<run id>/.
#   k8s/aws/scripts/perf-run.sh perf-tests/scenarios/fan-out.yaml [host:port]
# The target defaults to the transport Service inside the cluster (transport-mqtt:1883), where the Jobs write the
# PROXY protocol header the nodes expect themselves (--proxy-protocol, one source address per connection); give the
# NLB's host name to measure through the load balancer, which writes it instead (all perf clients then share the NAT
# gateway's addresses and meet the per-address connection rate). PERF_NODES (default 2) perf nodes are started for the run and released
# after it. Scale the scenario to the cluster with its counts (or perf's --scale), not the other way round.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
need aws eksctl kubectl java

scenario="${1:?usage: perf-run.sh perf-tests/scenarios/<name>.yaml [host:port]}"
target="${2:-transport-mqtt:1883}"
run_id="${RUN_ID:-k8s-$(date -u +%Y%m%d-%H%M%S)}"
[[ -f "$REPO_ROOT/$scenario" && "$scenario" == perf-tests/scenarios/*.yaml ]] \
  || die "$scenario: give a scenario file under perf-tests/scenarios/, relative to the repository root"
results="$REPO_ROOT/perf-results/$run_id"
mkdir -p "$results"

release_nodes() {
  eksctl scale nodegroup --cluster "$CLUSTER_NAME" --region "$AWS_REGION" --name perf --nodes 0 --nodes-min 0 || true
}
trap release_nodes EXIT
log "starting ${PERF_NODES:-2} perf nodes"
eksctl scale nodegroup --cluster "$CLUSTER_NAME" --region "$AWS_REGION" --name perf \
  --nodes "${PERF_NODES:-2}" --nodes-min 0

# Through the NLB the header comes from the NLB: a second one from the client would be refused.
proxy_header='s|^||'
[[ "$target" == transport-mqtt:1883 ]] || proxy_header='s| --proxy-protocol||'
dir="$(render_with_images perf perf)"
manifests="$(kubectl kustomize "$dir" \
  | sed -e "s|value: perf-tests/scenarios/fan-out.yaml|value: $scenario|" \
        -e "s|value: transport-mqtt:1883|value: $target|" \
        -e "s|value: k8s\$|value: $run_id|" \
        -e "$proxy_header")"
job_manifest() { # the Job document of one role
  awk -v want="name: perf-$1" 'BEGIN { RS = "---\n" } index($0, want) { printf "%s", $0 }' <<< "$manifests"
}

kubectl -n "$NAMESPACE" delete job perf-subscribers perf-publishers --ignore-not-found --wait
log "run $run_id: subscribers"
job_manifest subscribers | kubectl apply -f -
for _ in $(seq 1 90); do # the Job creates its pod asynchronously; kubectl wait fails on no match
  kubectl -n "$NAMESPACE" get pod -l app.kubernetes.io/name=perf-subscribers -o name | grep -q . && break
  sleep 2
done
kubectl -n "$NAMESPACE" wait --for=condition=Ready pod -l app.kubernetes.io/name=perf-subscribers --timeout=15m
sleep "${SUBSCRIBER_HEAD_START:-15}"
log "run $run_id: publishers"
job_manifest publishers | kubectl apply -f -

for role in publishers subscribers; do
  kubectl -n "$NAMESPACE" wait --for=condition=complete "job/perf-$role" --timeout=2h \
    || { kubectl -n "$NAMESPACE" logs "job/perf-$role" --tail=50 >&2; die "perf-$role failed"; }
  kubectl -n "$NAMESPACE" logs "job/perf-$role" > "$results/$role.log"
  sed -n "/^=== perf result $role ===\$/,\$p" "$results/$role.log" | tail -n +2 > "$results/$role.json"
done
"$REPO_ROOT/perf-tests/bin/perf" merge "$results/subscribers.json" "$results/publishers.json" \
  --out-file "$results/merged.json"
log "results in $results"
