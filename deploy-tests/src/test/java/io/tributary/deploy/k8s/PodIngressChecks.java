package io.tributary.deploy.k8s;

import io.tributary.deploy.k8s.ClusterNetwork.Cidr;
import io.tributary.deploy.k8s.ServiceChecks.Pod;
import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * issue 34: on EKS every Tributary pod is selected by a NetworkPolicy (Ingress), and what it admits fits each port.
 * The management port (the unauthenticated actuator) admits only other namespaces by label (Prometheus in
 * {@code monitoring}) and, on pods behind the NLB, the NLB's subnets (its health checks). The ports behind the NLB
 * and its health-check port admit every one of the NLB's subnets ({@link ClusterNetwork#publicSubnets()}), else its
 * connections or health checks never arrive. No {@code ipBlock} reaches beyond those subnets: the private subnets
 * hold every node and pod of the cluster, and a peer there that reaches an MQTT port can write its own PROXY header.
 * That the NLB's peers are its own addresses needs IP targets and client IP preservation off: both are checked.
 * No rule admits anybody (no sources) or every namespace. The kubelet's probes need no rule: the VPC CNI's network
 * policy agent admits the node's own address.
 */
final class PodIngressChecks {

    static final String HEALTH_CHECK_PORT = "service.beta.kubernetes.io/aws-load-balancer-healthcheck-port";
    static final String TARGET_TYPE = "service.beta.kubernetes.io/aws-load-balancer-nlb-target-type";
    static final String TARGET_GROUP_ATTRIBUTES =
            "service.beta.kubernetes.io/aws-load-balancer-target-group-attributes";

    private PodIngressChecks() {}

    static List<String> check(Manifests manifests, List<Pod> pods, ClusterNetwork network) {
        List<String> findings = new ArrayList<>();
        for (Pod pod : pods) {
            pod(manifests, pod, network, findings);
        }
        return findings;
    }

    private static void pod(Manifests manifests, Pod pod, ClusterNetwork network, List<String> findings) {
        Map<String, String> labels = Manifests.podLabels(pod.workload());
        List<Map<String, Object>> policies = manifests.ofKind("NetworkPolicy").stream()
                .filter(p -> selects(Yamls.at(p, "spec.podSelector"), labels))
                .filter(p -> {
                    List<Object> types = Yamls.listAt(p, "spec.policyTypes");
                    return types.isEmpty() || types.contains("Ingress");
                })
                .toList();
        if (policies.isEmpty()) {
            findings.add(pod.where() + ": no NetworkPolicy selects its pods: every pod of the cluster reaches its"
                    + " ports, the management port (unauthenticated actuator) included");
            return;
        }
        int management = pod.service().managementPort(ServiceChecks.literals(pod));
        Set<Integer> own = new TreeSet<>();
        Yamls.list(pod.container().get("ports"))
                .forEach(p -> own.add(((Number) Yamls.at(p, "containerPort")).intValue()));
        Set<Integer> balanced = new TreeSet<>();
        String balancer = null;
        for (Map<String, Object> service : manifests.ofKind("Service")) {
            if (!"LoadBalancer".equals(Yamls.text(service, "spec.type"))
                    || !Manifests.selects(Yamls.strings(Yamls.at(service, "spec.selector")), labels)) {
                continue;
            }
            balancer = Manifests.id(service);
            for (Object port : Yamls.listAt(service, "spec.ports")) {
                Object target =
                        Yamls.at(port, "targetPort") != null ? Yamls.at(port, "targetPort") : Yamls.at(port, "port");
                Integer reached = Manifests.containerPort(pod.container(), target);
                if (reached != null) {
                    balanced.add(reached);
                }
            }
            Map<String, String> annotations = Yamls.strings(Yamls.at(service, "metadata.annotations"));
            String attributes = annotations.getOrDefault(TARGET_GROUP_ATTRIBUTES, "");
            if (!"ip".equals(annotations.get(TARGET_TYPE))
                    || attributes.replace(" ", "").contains("preserve_client_ip.enabled=true")) {
                findings.add(balancer + ": the NLB must connect from its own addresses (" + TARGET_TYPE
                        + ": ip, no preserve_client_ip.enabled=true), the only ones the NetworkPolicy admits to "
                        + pod.where());
            }
            String health = annotations.get(HEALTH_CHECK_PORT);
            if (health != null && health.matches("\\d+")) {
                balanced.add(Integer.parseInt(health));
            }
        }
        // port -> the NLB subnets admitted on it
        Map<Integer, List<Cidr>> fromBalancer = new java.util.TreeMap<>();
        for (Map<String, Object> policy : policies) {
            String id = Manifests.id(policy);
            for (Object rule : Yamls.listAt(policy, "spec.ingress")) {
                Set<Integer> ports = new TreeSet<>();
                List<Object> named = Yamls.list(Yamls.at(rule, "ports"));
                if (named.isEmpty()) {
                    ports.addAll(own);
                }
                for (Object port : named) {
                    Integer number = Manifests.containerPort(pod.container(), Yamls.at(port, "port"));
                    if (number != null) {
                        ports.add(number);
                    }
                }
                if (ports.isEmpty()) {
                    continue;
                }
                String where =
                        id + " on port " + (ports.size() == 1 ? ports.iterator().next() : ports) + " of " + pod.where();
                List<Object> peers = Yamls.list(Yamls.at(rule, "from"));
                if (peers.isEmpty()) {
                    findings.add(where + ": a rule without sources admits anybody");
                    continue;
                }
                for (Object peer : peers) {
                    Object block = Yamls.at(peer, "ipBlock");
                    Object namespaces = Yamls.at(peer, "namespaceSelector");
                    if (block != null) {
                        Cidr cidr = Cidr.parse(Yamls.text(block, "cidr"));
                        boolean nlb = network.publicSubnets().stream().anyMatch(s -> s.contains(cidr));
                        if (!nlb) {
                            findings.add(where + ": admits " + cidr + ", beyond the NLB's subnets "
                                    + network.publicSubnets() + " (the private subnets hold every node and pod of the"
                                    + " cluster)");
                        } else if (!balanced.containsAll(ports)) {
                            findings.add(where + ": admits the NLB's subnet " + cidr + " on a port the NLB does not"
                                    + " use (" + balanced + ")");
                        } else {
                            ports.forEach(p -> fromBalancer
                                    .computeIfAbsent(p, k -> new ArrayList<>())
                                    .add(cidr));
                        }
                    } else if (namespaces != null) {
                        if (!selectsSome(namespaces)) {
                            findings.add(where + ": admits every namespace");
                        }
                    } else if (ports.contains(management)) {
                        findings.add(where + ": admits pods " + Yamls.at(peer, "podSelector")
                                + " on the management port (unauthenticated actuator): only Prometheus's namespace"
                                + " and the NLB's health checks belong there");
                    }
                }
            }
        }
        for (int port : balanced) {
            for (Cidr subnet : network.publicSubnets()) {
                boolean admitted =
                        fromBalancer.getOrDefault(port, List.of()).stream().anyMatch(a -> a.contains(subnet));
                if (!admitted) {
                    findings.add(pod.where() + ": the NLB's subnet " + subnet + " is not admitted on port " + port
                            + " (" + balancer + "): its " + (port == management ? "health checks" : "connections")
                            + " from there would not arrive");
                }
            }
        }
    }

    /** A pod or namespace selector: {@code {}} selects everything, otherwise matchLabels and In expressions. */
    static boolean selects(Object selector, Map<String, String> labels) {
        return !selectsSome(selector) || ManifestChecks.matches(selector, labels);
    }

    private static boolean selectsSome(Object selector) {
        return !Yamls.strings(Yamls.at(selector, "matchLabels")).isEmpty()
                || !Yamls.list(Yamls.at(selector, "matchExpressions")).isEmpty();
    }
}
