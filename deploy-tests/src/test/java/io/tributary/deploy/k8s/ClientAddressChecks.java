package io.tributary.deploy.k8s;

import io.tributary.deploy.k8s.ServiceChecks.Pod;
import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The transport nodes see their clients' addresses behind the NLB (issue 34): every LoadBalancer Service in front of
 * them turns the NLB's PROXY protocol v2 on, the nodes it selects expect it (TRIBUTARY_PROXY_PROTOCOL=true) and
 * apply a per-address connection rate (MQTT_MAX_CONNECTION_RATE_PER_IP above 0). One side without the other
 * either breaks every connection (a header the node does not expect) or blinds the per-address limits and the
 * block list (all clients with the NLB's address). The nodes take the header only from the VPC
 * ({@code TRIBUTARY_PROXY_PROTOCOL_TRUSTED} within eksctl.yaml's {@code vpc.cidr} and covering the NLB's subnets):
 * empty would believe any peer that reaches them, e.g. over a VPC peering or VPN straight to a pod address.
 */
final class ClientAddressChecks {

    static final String PROXY_PROTOCOL_ANNOTATION = "service.beta.kubernetes.io/aws-load-balancer-proxy-protocol";

    private ClientAddressChecks() {}

    static List<String> check(Manifests manifests, List<Pod> pods, ClusterNetwork network) {
        List<String> findings = new ArrayList<>();
        for (Map<String, Object> service : manifests.ofKind("Service")) {
            if (!"LoadBalancer".equals(Yamls.text(service, "spec.type"))) {
                continue;
            }
            String id = Manifests.id(service);
            Map<String, String> selector = Yamls.strings(Yamls.at(service, "spec.selector"));
            List<Pod> transports = pods.stream()
                    .filter(p -> p.service().reads("TRIBUTARY_PROXY_PROTOCOL"))
                    .filter(p -> Manifests.selects(selector, Manifests.podLabels(p.workload())))
                    .toList();
            if (transports.isEmpty()) {
                continue;
            }
            Map<String, String> annotations = Yamls.strings(Yamls.at(service, "metadata.annotations"));
            if (!"*".equals(annotations.get(PROXY_PROTOCOL_ANNOTATION))) {
                findings.add(id + ": the NLB does not send the PROXY protocol (" + PROXY_PROTOCOL_ANNOTATION
                        + ": \"*\"), so the transport nodes see its address for every client");
            }
            for (Pod pod : transports) {
                Map<String, String> env = pod.env().values();
                if (!"true".equals(pod.service().effective(env, "TRIBUTARY_PROXY_PROTOCOL"))) {
                    findings.add(pod.where() + ": behind " + id
                            + " without TRIBUTARY_PROXY_PROTOCOL=true: it cannot read the NLB's PROXY header");
                } else {
                    trusted(pod, id, network, findings);
                }
                String rate = pod.service().effective(env, "MQTT_MAX_CONNECTION_RATE_PER_IP");
                if (!(Double.parseDouble(rate) > 0)) {
                    findings.add(pod.where() + ": MQTT_MAX_CONNECTION_RATE_PER_IP is " + rate
                            + ": the per-address connection rate is off");
                }
            }
        }
        perfJobs(manifests, pods, findings);
        return findings;
    }

    private static void trusted(Pod pod, String balancer, ClusterNetwork network, List<String> findings) {
        String trusted = pod.service().effective(pod.env().values(), "TRIBUTARY_PROXY_PROTOCOL_TRUSTED");
        List<ClusterNetwork.Cidr> networks = java.util.Arrays.stream(
                        trusted == null ? new String[0] : trusted.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .map(ClusterNetwork.Cidr::parse)
                .toList();
        if (networks.isEmpty()) {
            findings.add(pod.where() + ": TRIBUTARY_PROXY_PROTOCOL_TRUSTED is empty: a PROXY header is believed from"
                    + " any peer that reaches the node, not only from the VPC (" + network.vpc() + ")");
            return;
        }
        for (ClusterNetwork.Cidr cidr : networks) {
            if (!network.vpc().contains(cidr)) {
                findings.add(pod.where() + ": TRIBUTARY_PROXY_PROTOCOL_TRUSTED trusts " + cidr + ", beyond the VPC "
                        + network.vpc() + " of " + ClusterNetwork.EKSCTL);
            }
        }
        for (ClusterNetwork.Cidr subnet : network.publicSubnets()) {
            if (networks.stream().noneMatch(n -> n.contains(subnet))) {
                findings.add(pod.where() + ": TRIBUTARY_PROXY_PROTOCOL_TRUSTED does not trust the NLB's subnet "
                        + subnet + ": clients through " + balancer + " would be refused");
            }
        }
    }

    /**
     * The perf Jobs connect inside the cluster, not through the NLB: while the transport nodes expect a PROXY header
     * the Jobs must write one themselves (perf-tests {@code --proxy-protocol}), or every connection is refused.
     */
    private static void perfJobs(Manifests manifests, List<Pod> pods, List<String> findings) {
        boolean expected = pods.stream()
                .filter(p -> p.service().reads("TRIBUTARY_PROXY_PROTOCOL"))
                .anyMatch(p -> "true".equals(p.service().effective(p.env().values(), "TRIBUTARY_PROXY_PROTOCOL")));
        if (!expected) {
            return;
        }
        for (Map<String, Object> job : manifests.ofKind("Job")) {
            for (Map<String, Object> container : Manifests.containers(job)) {
                String command = Yamls.list(container.get("command")) + " " + Yamls.list(container.get("args"));
                if (command.contains("perf-tests/bin/perf run") && !command.contains("--proxy-protocol")) {
                    findings.add(Manifests.id(job) + ": the transport nodes expect a PROXY protocol header and the"
                            + " perf run sends none (perf-tests --proxy-protocol)");
                }
            }
        }
    }
}
