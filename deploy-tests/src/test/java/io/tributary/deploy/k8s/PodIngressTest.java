package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * issue 34: the transport and routing pods are selected by NetworkPolicies too (chart and kustomize). The transport's
 * MQTT ports and its management port (the NLB's health checks) admit the NLB's subnets, the public subnets of
 * eksctl.yaml's VPC, where no node or pod is; the management ports Prometheus's namespace; routing nothing else.
 * The nodes believe PROXY headers only from the VPC. Each mutation takes a policy away or opens it, and is reported.
 */
class PodIngressTest {

    private static final DeployContext CONTEXT = DeployContext.load();
    private static final Path CHART = Repo.path(HelmChart.CHART_DIR);
    private static final List<String> NLB_SUBNETS = List.of("192.168.0.0/19", "192.168.32.0/19", "192.168.64.0/19");
    private static final String TRANSPORT = "StatefulSet/transport container transport";
    private static final String ROUTING = "Deployment/routing container routing";

    private static List<String> findings(Manifests manifests) {
        List<String> findings = new ArrayList<>(ManifestChecks.check(manifests, CONTEXT));
        findings.addAll(ServiceChecks.check(manifests, CONTEXT));
        return findings;
    }

    private static List<Manifests> shipped() {
        return List.of(
                DeployContext.deployment("in-cluster"),
                DeployContext.deployment("aws-managed"),
                HelmChart.plainDeployment(CHART, null, Map.of()),
                HelmChart.plainDeployment(CHART, CHART.resolve("values-aws-managed.yaml"), Map.of()));
    }

    /** The kustomize deployment and the chart's, each changed the same way. */
    private static List<List<String>> findingsAfter(Consumer<Manifests> change) {
        List<List<String>> all = new ArrayList<>();
        for (Manifests manifests :
                List.of(DeployContext.deployment("in-cluster"), HelmChart.plainDeployment(CHART, null, Map.of()))) {
            change.accept(manifests);
            all.add(findings(manifests));
        }
        return all;
    }

    private static Manifests without(Manifests manifests, String policy) {
        List<Map<String, Object>> objects = new ArrayList<>(manifests.all());
        objects.removeIf(o -> "NetworkPolicy".equals(Manifests.kind(o)) && policy.equals(Manifests.name(o)));
        return new Manifests(objects);
    }

    private static Map<String, Object> rule(Manifests manifests, String policy, int index) {
        return Yamls.map(Yamls.listAt(manifests.find("NetworkPolicy", policy).orElseThrow(), "spec.ingress")
                .get(index));
    }

    private static Map<String, Object> peer(Map<String, Object> rule, int index) {
        return Yamls.map(Yamls.list(rule.get("from")).get(index));
    }

    @Test
    void theTransportAndRoutingPoliciesSelectTheirPodsAndAdmitTheNlbAndPrometheusOnly() {
        for (Manifests manifests : shipped()) {
            Map<String, Object> transport =
                    manifests.find("NetworkPolicy", "transport").orElseThrow();
            Map<String, Object> routing =
                    manifests.find("NetworkPolicy", "routing").orElseThrow();
            assertThat(
                            manifests
                                    .workloadsSelectedBy(
                                            Yamls.strings(Yamls.at(transport, "spec.podSelector.matchLabels")))
                                    .stream()
                                    .map(Manifests::id))
                    .containsExactly("StatefulSet/transport");
            assertThat(
                            manifests
                                    .workloadsSelectedBy(
                                            Yamls.strings(Yamls.at(routing, "spec.podSelector.matchLabels")))
                                    .stream()
                                    .map(Manifests::id))
                    .containsExactly("Deployment/routing");
            // Ingress only, like every policy of the deployment: egress stays open.
            assertThat(Yamls.listAt(transport, "spec.policyTypes")).containsExactly("Ingress");
            assertThat(Yamls.listAt(routing, "spec.policyTypes")).containsExactly("Ingress");

            Map<String, Object> nlb = rule(manifests, "transport", 0);
            assertThat(Yamls.list(nlb.get("from")).stream().map(p -> Yamls.text(p, "ipBlock.cidr")))
                    .containsExactlyElementsOf(NLB_SUBNETS);
            assertThat(Yamls.list(nlb.get("ports")).stream().map(p -> Yamls.text(p, "port")))
                    .containsExactly("mqtt", "mqtt-ws", "management");
            Map<String, Object> perf = rule(manifests, "transport", 1);
            assertThat(Yamls.list(perf.get("ports")).stream().map(p -> Yamls.text(p, "port")))
                    .containsExactly("mqtt");
            assertThat(Yamls.at(peer(perf, 0), "podSelector")).isNotNull();
            for (Map<String, Object> metrics :
                    List.of(rule(manifests, "transport", 2), rule(manifests, "routing", 0))) {
                assertThat(Yamls.text(peer(metrics, 0), "namespaceSelector.matchLabels"))
                        .contains("monitoring");
                assertThat(Yamls.list(metrics.get("ports")).stream().map(p -> Yamls.text(p, "port")))
                        .containsExactly("management");
            }
            assertThat(Yamls.listAt(transport, "spec.ingress")).hasSize(3);
            assertThat(Yamls.listAt(routing, "spec.ingress")).hasSize(1);
            assertThat(findings(manifests)).isEmpty();
        }
    }

    @Test
    void withTlsTheNlbIsAdmittedOnTheTlsPortToo() {
        Manifests manifests = HelmChart.plainDeployment(
                CHART, null, Map.of("transport.tls.enabled", "true", "transport.tls.secretName", "transport-tls"));
        assertThat(Yamls.list(rule(manifests, "transport", 0).get("ports")).stream()
                        .map(p -> Yamls.text(p, "port")))
                .containsExactly("mqtt", "mqtt-ws", "mqtt-tls", "management");
        assertThat(findings(manifests)).isEmpty();
    }

    @Test
    void aTransportOrRoutingPodNoPolicySelectsIsReported() {
        for (String policy : List.of("transport", "routing")) {
            String pod = policy.equals("transport") ? TRANSPORT : ROUTING;
            for (Manifests manifests :
                    List.of(DeployContext.deployment("in-cluster"), HelmChart.plainDeployment(CHART, null, Map.of()))) {
                assertThat(findings(without(manifests, policy)))
                        .contains(pod + ": no NetworkPolicy selects its pods: every pod of the cluster reaches its"
                                + " ports, the management port (unauthenticated actuator) included");
            }
        }
    }

    @Test
    void aRuleWithoutSourcesIsReported() {
        assertThat(findingsAfter(m -> rule(m, "routing", 0).remove("from")))
                .allSatisfy(f -> assertThat(f)
                        .contains("NetworkPolicy/routing on port 8082 of " + ROUTING
                                + ": a rule without sources admits anybody"));
    }

    @Test
    void anyAddressOrTheVpcOnTheMqttPortsIsReported() {
        for (String cidr : List.of("0.0.0.0/0", "192.168.0.0/16", "192.168.96.0/19")) {
            assertThat(findingsAfter(m -> Yamls.mapAt(peer(rule(m, "transport", 0), 0), "ipBlock")
                            .put("cidr", cidr)))
                    .allSatisfy(f -> assertThat(f)
                            .anyMatch(x -> x.startsWith("NetworkPolicy/transport on port [1883, 8081, 8083] of "
                                    + TRANSPORT + ": admits " + cidr + ", beyond the NLB's subnets"))
                            // and that subnet of the NLB is then missing
                            .contains(TRANSPORT + ": the NLB's subnet 192.168.0.0/19 is not admitted on port 1883"
                                    + " (Service/transport-mqtt): its connections from there would not arrive"));
        }
    }

    @Test
    void everyNamespaceOrPodsOnTheManagementPortAreReported() {
        assertThat(findingsAfter(m -> peer(rule(m, "routing", 0), 0).put("namespaceSelector", new LinkedHashMap<>())))
                .allSatisfy(f -> assertThat(f)
                        .contains("NetworkPolicy/routing on port 8082 of " + ROUTING + ": admits every namespace"));
        assertThat(findingsAfter(m -> {
                    Map<String, Object> peer = peer(rule(m, "transport", 2), 0);
                    peer.remove("namespaceSelector");
                    peer.put(
                            "podSelector",
                            new LinkedHashMap<>(Map.of("matchLabels", Map.of("app.kubernetes.io/name", "session"))));
                }))
                .allSatisfy(f -> assertThat(f)
                        .anyMatch(x ->
                                x.startsWith("NetworkPolicy/transport on port 8081 of " + TRANSPORT + ": admits pods")
                                        && x.contains("on the management port")));
    }

    @Test
    void anNlbSubnetTheChartDoesNotAdmitIsReported() {
        assertThat(findings(HelmChart.plainDeployment(
                        CHART,
                        null,
                        Map.of(
                                "networkPolicy.loadBalancerSubnets[0]", "192.168.0.0/19",
                                "networkPolicy.loadBalancerSubnets[1]", "192.168.32.0/19"))))
                .contains(TRANSPORT + ": the NLB's subnet 192.168.64.0/19 is not admitted on port 8081"
                        + " (Service/transport-mqtt): its health checks from there would not arrive");
    }

    /** With instance targets or client IP preservation the NLB's peers are not its own addresses. */
    @Test
    void anNlbThatDoesNotConnectFromItsOwnAddressesIsReported() {
        String finding = "Service/transport-mqtt: the NLB must connect from its own addresses";
        assertThat(findingsAfter(
                        m -> Yamls.mapAt(m.find("Service", "transport-mqtt").orElseThrow(), "metadata.annotations")
                                .put(PodIngressChecks.TARGET_TYPE, "instance")))
                .allSatisfy(f -> assertThat(f).anyMatch(x -> x.startsWith(finding)));
        assertThat(findingsAfter(
                        m -> Yamls.mapAt(m.find("Service", "transport-mqtt").orElseThrow(), "metadata.annotations")
                                .put(
                                        PodIngressChecks.TARGET_GROUP_ATTRIBUTES,
                                        "deregistration_delay.timeout_seconds=60,preserve_client_ip.enabled=true")))
                .allSatisfy(f -> assertThat(f).anyMatch(x -> x.startsWith(finding)));
    }

    /** Empty source lists render no rule (a rule without sources would admit anybody): the pods then admit nobody. */
    @Test
    void emptySourceListsRenderNoRule() {
        Manifests manifests = HelmChart.plainDeployment(
                CHART,
                null,
                Map.of(
                        "networkPolicy.loadBalancerSubnets", "null",
                        "networkPolicy.mqttFrom", "null",
                        "networkPolicy.metricsFrom", "null"));
        for (String policy : List.of("transport", "routing")) {
            Map<String, Object> rendered =
                    manifests.find("NetworkPolicy", policy).orElseThrow();
            assertThat(Yamls.at(rendered, "spec.ingress")).as(policy).isEqualTo(List.of());
        }
        assertThat(findings(manifests))
                .noneMatch(f -> f.contains("admits anybody"))
                .contains(TRANSPORT + ": the NLB's subnet 192.168.0.0/19 is not admitted on port 1883"
                        + " (Service/transport-mqtt): its connections from there would not arrive");
    }

    @Test
    void proxyHeadersBelievedFromAnyPeerOrBeyondTheVpcAreReported() {
        String empty = TRANSPORT + ": TRIBUTARY_PROXY_PROTOCOL_TRUSTED is empty: a PROXY header is believed from any"
                + " peer that reaches the node, not only from the VPC (192.168.0.0/16)";
        assertThat(findings(HelmChart.plainDeployment(CHART, null, Map.of("transport.proxyProtocol.trusted", ""))))
                .contains(empty);
        assertThat(findingsAfter(m -> Yamls.list(Manifests.containers(
                                        m.find("StatefulSet", "transport").orElseThrow())
                                .get(0)
                                .get("env"))
                        .removeIf(e -> "TRIBUTARY_PROXY_PROTOCOL_TRUSTED".equals(Yamls.text(e, "name")))))
                .allSatisfy(f -> assertThat(f).contains(empty));
        assertThat(findings(HelmChart.plainDeployment(
                        CHART, null, Map.of("transport.proxyProtocol.trusted", "10.0.0.0/8"))))
                .contains(TRANSPORT + ": TRIBUTARY_PROXY_PROTOCOL_TRUSTED trusts 10.0.0.0/8, beyond the VPC"
                        + " 192.168.0.0/16 of k8s/aws/cluster/eksctl.yaml")
                .contains(TRANSPORT + ": TRIBUTARY_PROXY_PROTOCOL_TRUSTED does not trust the NLB's subnet"
                        + " 192.168.0.0/19: clients through Service/transport-mqtt would be refused");
    }

    @Test
    void theClusterPutsNoNodeInTheNlbsSubnets() {
        Map<String, Object> eksctl = Yamls.load(Repo.read(ClusterNetwork.EKSCTL));
        assertThat(ClusterNetwork.check(eksctl)).isEmpty();
        assertThat(ClusterNetwork.of(eksctl).publicSubnets().stream().map(Object::toString))
                .containsExactlyElementsOf(NLB_SUBNETS);
        Yamls.map(Yamls.listAt(eksctl, "managedNodeGroups").get(0)).remove("privateNetworking");
        Yamls.mapAt(eksctl, "vpc").remove("cidr");
        assertThat(ClusterNetwork.check(eksctl))
                .anyMatch(f -> f.startsWith(ClusterNetwork.EKSCTL + ": no vpc.cidr"))
                .anyMatch(f -> f.startsWith(ClusterNetwork.EKSCTL + ": node group system without privateNetworking"));
    }
}
