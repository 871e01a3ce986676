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
 * issue 34, "One port for everything": on EKS (kustomize and the chart) the management ports and session-service's
 * internal API port are on no public Service, the nodes call the internal API port, and the session NetworkPolicy
 * admits the transport and routing pods on the internal port only. Each mutation puts an opening back.
 */
class PrivatePortsTest {

    private static final DeployContext CONTEXT = DeployContext.load();
    private static final Path CHART = Repo.path(HelmChart.CHART_DIR);

    private static List<String> findings(Manifests manifests) {
        List<String> findings = new ArrayList<>(ManifestChecks.check(manifests, CONTEXT));
        findings.addAll(ServiceChecks.check(manifests, CONTEXT));
        return findings;
    }

    private static List<String> findingsAfter(String kind, String name, Consumer<Map<String, Object>> change) {
        Manifests manifests = DeployContext.deployment("in-cluster");
        change.accept(manifests.find(kind, name).orElseThrow());
        return findings(manifests);
    }

    private static void addPort(Map<String, Object> service, String name, int port, String targetPort) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", name);
        entry.put("port", port);
        entry.put("targetPort", targetPort);
        Yamls.listAt(service, "spec.ports").add(entry);
    }

    private static List<Object> servicePorts(Manifests manifests, String service) {
        return Yamls.listAt(manifests.find("Service", service).orElseThrow(), "spec.ports").stream()
                .map(p -> (Object) Yamls.text(p, "targetPort"))
                .toList();
    }

    @Test
    void theShippedServicesCarryNoPrivatePortAndTheInternalApiHasAServiceOfItsOwn() {
        for (Manifests manifests :
                List.of(DeployContext.deployment("in-cluster"), HelmChart.plainDeployment(CHART, null, Map.of()))) {
            assertThat(findings(manifests)).isEmpty();
            assertThat(servicePorts(manifests, "session")).containsExactly("http");
            assertThat(servicePorts(manifests, "session-internal")).containsExactly("internal");
            assertThat(servicePorts(manifests, "transport-mqtt")).doesNotContain("management");
            assertThat(servicePorts(manifests, "transport-headless")).containsExactly("mqtt");
        }
    }

    @Test
    void theManagementPortOnTheAdminApisServiceIsReported() {
        assertThat(findingsAfter("Service", "session", s -> addPort(s, "metrics", 8085, "management")))
                .anyMatch(f -> f.startsWith("Service/session: port 8085 leads to the management port 8085"));
    }

    @Test
    void theInternalApiBesideTheAdminApiIsReported() {
        assertThat(findingsAfter("Service", "session", s -> addPort(s, "internal", 8086, "internal")))
                .anyMatch(f -> f.startsWith("Service/session: port 8086 leads to the internal API port 8086"));
    }

    @Test
    void theTransportsManagementPortOnTheNlbIsReported() {
        assertThat(findingsAfter("Service", "transport-mqtt", s -> addPort(s, "management", 8081, "management")))
                .anyMatch(f -> f.startsWith("Service/transport-mqtt: port 8081 leads to the management port 8081"));
    }

    @Test
    void aNodeCallingTheRestPortIsReported() {
        assertThat(findingsAfter(
                        "StatefulSet",
                        "transport",
                        w -> Yamls.list(Manifests.containers(w).get(0).get("env")).stream()
                                .filter(e -> "SESSION_SERVICE_URL".equals(Yamls.text(e, "name")))
                                .forEach(e -> Yamls.map(e).put("value", "http://session:8080"))))
                .anyMatch(f -> f.startsWith("StatefulSet/transport container transport: SESSION_SERVICE_URL leads to"
                        + " port 8080 of Deployment/session container session, not its internal API port 8086"));
    }

    /** The internal port admits the transport and routing pods only; the admin and metrics sources their ports. */
    @Test
    void theSessionPolicyGivesEachPortItsOwnSources() {
        Manifests manifests = HelmChart.plainDeployment(
                CHART, null, Map.of("networkPolicy.adminFrom[0].namespaceSelector.matchLabels.name", "ingress-nginx"));
        List<Object> rules =
                Yamls.listAt(manifests.find("NetworkPolicy", "session").orElseThrow(), "spec.ingress");
        Map<String, List<Object>> sourcesByPort = new LinkedHashMap<>();
        for (Object rule : rules) {
            for (Object port : Yamls.list(Yamls.at(rule, "ports"))) {
                sourcesByPort.put(Yamls.text(port, "port"), Yamls.list(Yamls.at(rule, "from")));
            }
        }
        assertThat(sourcesByPort).containsOnlyKeys("internal", "http", "management");
        assertThat(sourcesByPort.get("internal"))
                .singleElement()
                .satisfies(peer -> assertThat(Yamls.list(Yamls.at(peer, "podSelector.matchExpressions")))
                        .singleElement()
                        .satisfies(e ->
                                assertThat(Yamls.list(Yamls.at(e, "values"))).containsExactly("transport", "routing")));
        assertThat(sourcesByPort.get("http"))
                .singleElement()
                .satisfies(peer -> assertThat(Yamls.text(peer, "namespaceSelector.matchLabels.name"))
                        .isEqualTo("ingress-nginx"));
        assertThat(sourcesByPort.get("management"))
                .singleElement()
                .satisfies(peer -> assertThat(Yamls.text(peer, "namespaceSelector.matchLabels"))
                        .contains("monitoring"));
        // Without admin sources there is no rule for the admin port at all: a rule without sources admits everybody.
        List<Object> closed = Yamls.listAt(
                HelmChart.plainDeployment(CHART, null, Map.of())
                        .find("NetworkPolicy", "session")
                        .orElseThrow(),
                "spec.ingress");
        assertThat(closed)
                .hasSize(2)
                .allSatisfy(
                        rule -> assertThat(Yamls.list(Yamls.at(rule, "from"))).isNotEmpty());
    }
}
