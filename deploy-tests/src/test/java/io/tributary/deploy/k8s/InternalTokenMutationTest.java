package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * issue 34, "one token for every caller": in the kustomize deployments and the chart session-service reads both roles'
 * internal tokens from their Secret keys, each transport node and router only its own role's key, and each way of
 * sharing a token again (a router with the transport nodes' key, a transport node with the routers' too, one key for
 * both roles, a token written out), made once in the real manifests, is reported.
 */
class InternalTokenMutationTest {

    private static final DeployContext CONTEXT = DeployContext.load();
    private static final String TRANSPORT_KEY = "secret tributary-internal/TRIBUTARY_INTERNAL_TRANSPORT_TOKEN";
    private static final String ROUTING_KEY = "secret tributary-internal/TRIBUTARY_INTERNAL_ROUTING_TOKEN";

    private static List<Manifests> deployments() {
        return List.of(
                DeployContext.deployment("in-cluster"),
                DeployContext.deployment("aws-managed"),
                HelmChart.deployment(Repo.path(HelmChart.CHART_DIR), null, Map.of()),
                HelmChart.deployment(
                        Repo.path(HelmChart.CHART_DIR),
                        Repo.path(HelmChart.CHART_DIR).resolve("values-aws-managed.yaml"),
                        Map.of()));
    }

    private static List<String> findingsAfter(
            Manifests manifests, String kind, String name, Consumer<Map<String, Object>> change) {
        change.accept(manifests.find(kind, name).orElseThrow());
        List<String> findings = new ArrayList<>(ServiceChecks.check(manifests, CONTEXT));
        findings.addAll(ManifestChecks.check(manifests, CONTEXT));
        findings.addAll(ManifestSecretChecks.check(manifests));
        return findings;
    }

    private static Map<String, Object> env(Map<String, Object> workload, String name) {
        for (Object node : Yamls.list(Manifests.containers(workload).get(0).get("env"))) {
            if (name.equals(Yamls.text(node, "name"))) {
                return Yamls.map(node);
            }
        }
        throw new AssertionError("no " + name + " in " + Manifests.id(workload));
    }

    private static void secretKey(Map<String, Object> workload, String name, String key) {
        Yamls.mapAt(env(workload, name), "valueFrom.secretKeyRef").put("key", key);
    }

    private static Map<String, String> envOf(Manifests manifests, String kind, String name) {
        Map<String, Object> container =
                Manifests.containers(manifests.find(kind, name).orElseThrow()).get(0);
        return ContainerEnv.of(container, manifests, CONTEXT.scriptSecrets(), name, new ArrayList<>())
                .values();
    }

    @Test
    void sessionServiceReadsBothTokensAndEveryNodeOnlyItsOwn() {
        assertThat(CONTEXT.scriptSecrets().get("tributary-internal"))
                .containsExactlyInAnyOrder("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", "TRIBUTARY_INTERNAL_ROUTING_TOKEN");
        for (Manifests manifests : deployments()) {
            assertThat(envOf(manifests, "Deployment", "session"))
                    .containsEntry("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", TRANSPORT_KEY)
                    .containsEntry("TRIBUTARY_INTERNAL_ROUTING_TOKEN", ROUTING_KEY)
                    .doesNotContainKey("TRIBUTARY_INTERNAL_TOKEN");
            assertThat(envOf(manifests, "StatefulSet", "transport"))
                    .containsEntry("TRIBUTARY_INTERNAL_TOKEN", TRANSPORT_KEY)
                    .doesNotContainValue(ROUTING_KEY);
            assertThat(envOf(manifests, "Deployment", "routing"))
                    .containsEntry("TRIBUTARY_INTERNAL_TOKEN", ROUTING_KEY)
                    .doesNotContainValue(TRANSPORT_KEY);
            assertThat(findingsAfter(manifests, "Deployment", "session", w -> {}))
                    .noneMatch(f -> f.contains("INTERNAL") || f.contains("internal token"));
        }
    }

    @Test
    void aRouterWithTheTransportNodesKeyIsReported() {
        for (Manifests manifests : deployments()) {
            assertThat(findingsAfter(
                            manifests,
                            "Deployment",
                            "routing",
                            w -> secretKey(w, "TRIBUTARY_INTERNAL_TOKEN", "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN")))
                    .contains("Deployment/routing container routing: TRIBUTARY_INTERNAL_TOKEN comes from "
                            + TRANSPORT_KEY + ", not from the routing nodes' token " + ROUTING_KEY
                            + " (session-service's TRIBUTARY_INTERNAL_ROUTING_TOKEN)")
                    .contains("Deployment/routing container routing: holds the transport nodes' internal token ("
                            + TRANSPORT_KEY + ", as TRIBUTARY_INTERNAL_TOKEN): each node may hold its own role's"
                            + " token only");
        }
    }

    @Test
    void aTransportNodeThatAlsoGetsTheRoutersTokenIsReported() {
        for (Manifests manifests : deployments()) {
            assertThat(findingsAfter(manifests, "StatefulSet", "transport", w -> {
                        Map<String, Object> from = new LinkedHashMap<>();
                        from.put("secretRef", new LinkedHashMap<>(Map.of("name", "tributary-internal")));
                        Map<String, Object> container = Manifests.containers(w).get(0);
                        List<Object> envFrom = new ArrayList<>(Yamls.list(container.get("envFrom")));
                        envFrom.add(from);
                        container.put("envFrom", envFrom);
                    }))
                    .contains("StatefulSet/transport container transport: holds the routing nodes' internal token ("
                            + ROUTING_KEY + ", as TRIBUTARY_INTERNAL_ROUTING_TOKEN): each node may hold its own role's"
                            + " token only");
        }
    }

    @Test
    void oneKeyForBothRolesOrNoneForOneIsReported() {
        for (Manifests manifests : deployments()) {
            assertThat(findingsAfter(
                            manifests,
                            "Deployment",
                            "session",
                            w -> secretKey(
                                    w, "TRIBUTARY_INTERNAL_ROUTING_TOKEN", "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN")))
                    .anyMatch(
                            f -> f.startsWith("Deployment/session container session: TRIBUTARY_INTERNAL_TRANSPORT_TOKEN"
                                    + " and TRIBUTARY_INTERNAL_ROUTING_TOKEN come from the same secret "
                                    + TRANSPORT_KEY));
        }
        for (Manifests manifests : deployments()) {
            assertThat(findingsAfter(
                            manifests,
                            "Deployment",
                            "session",
                            w -> Yamls.list(Manifests.containers(w).get(0).get("env"))
                                    .removeIf(e -> "TRIBUTARY_INTERNAL_ROUTING_TOKEN".equals(Yamls.text(e, "name")))))
                    .contains("Deployment/session container session: TRIBUTARY_INTERNAL_ROUTING_TOKEN (the routing"
                            + " nodes' internal token) does not come from a secret")
                    .anyMatch(f -> f.startsWith(
                            "Deployment/session container session: TRIBUTARY_INTERNAL_ROUTING_TOKEN must be set"));
        }
    }

    @Test
    void aTokenWrittenOutIsReported() {
        for (Manifests manifests : deployments()) {
            assertThat(findingsAfter(manifests, "Deployment", "routing", w -> {
                        Map<String, Object> variable = env(w, "TRIBUTARY_INTERNAL_TOKEN");
                        variable.remove("valueFrom");
                        variable.put("value", "routing-token-0123456789");
                    }))
                    .contains(
                            "Deployment/routing container routing: TRIBUTARY_INTERNAL_TOKEN does not come from a secret")
                    .contains("Deployment/routing container routing: TRIBUTARY_INTERNAL_TOKEN is not read from a Secret"
                            + " (secretKeyRef)");
        }
    }
}
