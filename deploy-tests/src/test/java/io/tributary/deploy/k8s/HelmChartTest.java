package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.LintResult;
import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.WebSocketOrigins;
import io.tributary.deploy.support.Yamls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Helm chart k8s/helm/tributary, linted and rendered by Helm itself, passes the same checks as the kustomize
 * overlays (schema of every object, wiring, no drift from the services' settings) and is the same deployment.
 */
class HelmChartTest {

    private static final DeployContext CONTEXT = DeployContext.load();
    private static final Path CHART = Repo.path(HelmChart.CHART_DIR);
    private static final Path MANAGED = CHART.resolve("values-aws-managed.yaml");

    @TempDir
    Path temp;

    /** Every finding of the checks ManifestTest runs on the kustomize output; cert-manager's kind has no schema. */
    static List<String> findings(Manifests manifests) {
        List<String> findings = new ArrayList<>(ManifestChecks.check(manifests, CONTEXT));
        findings.addAll(ServiceChecks.check(manifests, CONTEXT));
        manifests.all().stream()
                .filter(o -> !"Certificate".equals(Manifests.kind(o)))
                .forEach(o -> findings.addAll(KubeSchema.validate(o)));
        return findings;
    }

    private static Set<String> ids(Manifests manifests) {
        Set<String> ids = new TreeSet<>();
        manifests.all().forEach(o -> ids.add(Manifests.id(o)));
        return ids;
    }

    @Test
    void helmLintPassesStrictly() {
        LintResult result = HelmChart.lint(CHART);
        assertThat(result.isFailed())
                .as(String.join("\n", result.getMessages()))
                .isFalse();
    }

    @Test
    void theDefaultValuesRenderTheInClusterDeploymentAndPassEveryCheck() {
        Manifests manifests = HelmChart.deployment(CHART, null, Map.of());
        assertThat(ids(manifests))
                .contains(
                        "StatefulSet/kafka",
                        "StatefulSet/postgres",
                        "StatefulSet/redis",
                        "StatefulSet/transport",
                        "Deployment/routing",
                        "Deployment/session",
                        "Service/transport-mqtt",
                        "Secret/tributary-tls",
                        "NetworkPolicy/session",
                        "NetworkPolicy/kafka",
                        "NetworkPolicy/postgres",
                        "NetworkPolicy/redis");
        // MQTT over TLS only (ChartTlsTest): the perf Jobs, which speak plain MQTT, are the only findings.
        assertThat(findings(manifests)).containsExactlyInAnyOrderElementsOf(HelmChart.PERF_WITHOUT_PLAIN_MQTT);
    }

    @Test
    void theAwsManagedValuesRenderWithoutDataStoresAndPassEveryCheck() {
        Manifests manifests = HelmChart.deployment(CHART, MANAGED, Map.of());
        assertThat(ids(manifests))
                .contains("StatefulSet/transport", "Deployment/routing", "Deployment/session")
                .doesNotContain(
                        "StatefulSet/kafka", "StatefulSet/postgres", "StatefulSet/redis", "NetworkPolicy/kafka");
        assertThat(manifests.configMapData("tributary-kafka").get("KAFKA_BOOTSTRAP_SERVERS"))
                .startsWith("b-1.replace-me.kafka.");
        assertThat(manifests.configMapData("tributary-session-stores"))
                .containsEntry("REDIS_URL", "rediss://replace-me.cache.amazonaws.com:6379");
        assertThat(findings(manifests)).containsExactlyInAnyOrderElementsOf(HelmChart.PERF_WITHOUT_PLAIN_MQTT);
    }

    @Test
    void managedStoresWithoutAnEndpointFailTheRenderingWithTheValueToSet() {
        assertThatThrownBy(() -> HelmChart.render(CHART, MANAGED, Map.of("postgres.url", "")))
                .hasMessageContaining("postgres.url is required when dataStores.enabled is false");
    }

    /**
     * The chart is the kustomize deployment as templates: same objects, same containers, resources and drain, with
     * the overlays' listeners (plain MQTT and WebSocket, no TLS), which the chart no longer has by default.
     */
    @Test
    void theChartRendersTheSameObjectsAsTheKustomizeOverlays() {
        for (String overlay : List.of("in-cluster", "aws-managed")) {
            Manifests kustomize = DeployContext.deployment(overlay);
            Manifests chart =
                    HelmChart.plainDeployment(CHART, overlay.equals("aws-managed") ? MANAGED : null, Map.of());
            // NetworkPolicies included (their rules: NetworkIsolationTest).
            assertThat(ids(chart)).as(overlay).isEqualTo(ids(kustomize));
            for (Map<String, Object> workload : kustomize.workloads()) {
                Map<String, Object> rendered = chart.find(Manifests.kind(workload), Manifests.name(workload))
                        .orElseThrow();
                String id = overlay + " " + Manifests.id(workload);
                assertThat(Yamls.at(rendered, "spec.replicas")).as(id).isEqualTo(Yamls.at(workload, "spec.replicas"));
                assertThat(Manifests.podSpec(rendered).get("terminationGracePeriodSeconds"))
                        .as(id)
                        .isEqualTo(Manifests.podSpec(workload).get("terminationGracePeriodSeconds"));
                for (Map<String, Object> container : Manifests.containers(workload)) {
                    Map<String, Object> twin = Manifests.containers(rendered).stream()
                            .filter(c -> c.get("name").equals(container.get("name")))
                            .findFirst()
                            .orElseThrow();
                    for (String field :
                            List.of("resources", "lifecycle", "ports", "envFrom", "env", "command", "args")) {
                        assertThat(twin.get(field)).as(id + " " + field).isEqualTo(container.get(field));
                    }
                }
            }
            for (String configMap : List.of("tributary-kafka", "tributary-session-stores")) {
                assertThat(chart.configMapData(configMap))
                        .as(overlay + " " + configMap)
                        .isEqualTo(kustomize.configMapData(configMap));
            }
        }
    }

    @Test
    void sessionServiceAndTheDataStoresAdmitOnlyTheirClients() {
        Manifests manifests = HelmChart.deployment(
                CHART, null, Map.of("networkPolicy.adminFrom[0].namespaceSelector.matchLabels.name", "ingress-nginx"));
        Map<String, Object> session = manifests.find("NetworkPolicy", "session").orElseThrow();
        List<Object> rules = Yamls.listAt(session, "spec.ingress");
        // internal API, admin API, metrics: each port its own sources (PrivatePortsTest)
        assertThat(rules).hasSize(3);
        List<Object> peers = new ArrayList<>();
        rules.forEach(rule -> peers.addAll(Yamls.list(Yamls.at(rule, "from"))));
        Set<String> admittedWorkloads = new TreeSet<>();
        for (Object peer : peers) {
            Object podSelector = Yamls.at(peer, "podSelector");
            if (podSelector != null) {
                manifests.workloads().stream()
                        .filter(w -> ManifestChecks.matches(podSelector, Manifests.podLabels(w)))
                        .forEach(w -> admittedWorkloads.add(Manifests.id(w)));
            }
        }
        assertThat(admittedWorkloads).containsExactlyInAnyOrder("StatefulSet/transport", "Deployment/routing");
        assertThat(peers).anyMatch(p -> "ingress-nginx".equals(Yamls.text(p, "namespaceSelector.matchLabels.name")));
        for (String store : List.of("kafka", "postgres", "redis")) {
            Map<String, Object> policy = manifests.find("NetworkPolicy", store).orElseThrow();
            assertThat(Yamls.listAt(policy, "spec.policyTypes")).as(store).containsExactly("Ingress");
            for (Object rule : Yamls.listAt(policy, "spec.ingress")) {
                for (Object peer : Yamls.list(Yamls.at(rule, "from"))) {
                    assertThat(Yamls.at(peer, "namespaceSelector"))
                            .as(store + " admits another namespace")
                            .isNull();
                    assertThat(Yamls.at(peer, "ipBlock"))
                            .as(store + " admits addresses")
                            .isNull();
                }
            }
        }
        assertThat(findings(manifests)).containsExactlyInAnyOrderElementsOf(HelmChart.PERF_WITHOUT_PLAIN_MQTT);
    }

    @Test
    void tlsFromCertManagerMountsTheIssuedSecretAndOpensThePortOnTheLoadBalancer() {
        Manifests manifests = HelmChart.deployment(
                CHART,
                null,
                Map.of(
                        "transport.tls.enabled",
                        "true",
                        "transport.tls.certManager.enabled",
                        "true",
                        "transport.tls.certManager.dnsNames[0]",
                        "mqtt.example.com"));
        Map<String, Object> certificate =
                manifests.find("Certificate", "transport-tls").orElseThrow();
        assertThat(Yamls.text(certificate, "spec.secretName")).isEqualTo("tributary-tls");
        assertThat(Yamls.listAt(certificate, "spec.dnsNames")).containsExactly("mqtt.example.com");
        Map<String, Object> transport =
                manifests.find("StatefulSet", "transport").orElseThrow();
        assertThat(Yamls.list(Manifests.podSpec(transport).get("volumes")))
                .anyMatch(v -> "tributary-tls".equals(Yamls.text(v, "secret.secretName")));
        Map<String, Object> container = Manifests.containers(transport).get(0);
        assertThat(Manifests.containerPort(container, "mqtt-tls")).isEqualTo(8883);
        ContainerEnv env = ContainerEnv.of(container, manifests, CONTEXT.scriptSecrets(), "", new ArrayList<>());
        assertThat(env.values())
                .containsEntry("MQTT_TLS_PORT", "8883")
                .containsEntry("MQTT_TLS_CERT", "/etc/tributary/tls/tls.crt")
                .containsEntry("MQTT_TLS_KEY", "/etc/tributary/tls/tls.key");
        assertThat(Yamls.listAt(manifests.find("Service", "transport-mqtt").orElseThrow(), "spec.ports"))
                .anyMatch(p -> "mqtt-tls".equals(Yamls.text(p, "targetPort")));
        // cert-manager's Secret: the chart generates none.
        assertThat(manifests.ofKind("Secret")).isEmpty();
        assertThat(findings(manifests)).containsExactlyInAnyOrderElementsOf(HelmChart.PERF_WITHOUT_PLAIN_MQTT);
    }

    @Test
    void thePlainListenerTurnedOffLeavesOnlyTlsOnThePodsTheLoadBalancerAndThePolicy() {
        Manifests manifests = HelmChart.deployment(
                CHART,
                null,
                Map.of(
                        "transport.tls.enabled",
                        "true",
                        "transport.plainMqtt.enabled",
                        "false",
                        "transport.wsPort",
                        "0"));
        Map<String, Object> transport =
                manifests.find("StatefulSet", "transport").orElseThrow();
        Map<String, Object> container = Manifests.containers(transport).get(0);
        assertThat(Yamls.list(container.get("ports")))
                .extracting(p -> Yamls.text(p, "name"))
                .containsExactly("mqtt-tls", "management");
        ContainerEnv env = ContainerEnv.of(container, manifests, CONTEXT.scriptSecrets(), "", new ArrayList<>());
        assertThat(env.values()).containsEntry("MQTT_PLAIN_ENABLED", "false");
        assertThat(Yamls.listAt(manifests.find("Service", "transport-mqtt").orElseThrow(), "spec.ports"))
                .extracting(p -> Yamls.text(p, "targetPort"))
                .containsExactly("mqtt-tls");
        assertThat(Yamls.listAt(manifests.find("Service", "transport-headless").orElseThrow(), "spec.ports"))
                .extracting(p -> Yamls.text(p, "targetPort"))
                .containsExactly("mqtt-tls");
        // Every check passes with the plain port gone (a policy on a port the pods do not have would be reported) but
        // the perf Jobs', which speak plain MQTT and so cannot reach a deployment that serves TLS only.
        assertThat(findings(manifests)).containsExactlyInAnyOrderElementsOf(HelmChart.PERF_WITHOUT_PLAIN_MQTT);
        // The default since issue 34 (ChartTlsTest); turned on, the plain port is back, told to the node explicitly.
        Map<String, Object> byDefault = Manifests.containers(HelmChart.deployment(CHART, null, Map.of())
                        .find("StatefulSet", "transport")
                        .orElseThrow())
                .get(0);
        assertThat(Manifests.containerPort(byDefault, "mqtt")).isNull();
        Map<String, Object> plain = Manifests.containers(
                        HelmChart.deployment(CHART, null, Map.of("transport.plainMqtt.enabled", "true"))
                                .find("StatefulSet", "transport")
                                .orElseThrow())
                .get(0);
        assertThat(Manifests.containerPort(plain, "mqtt")).isEqualTo(1883);
        assertThat(Yamls.list(plain.get("env")))
                .anyMatch(e ->
                        "MQTT_PLAIN_ENABLED".equals(Yamls.text(e, "name")) && "true".equals(Yamls.text(e, "value")));
    }

    @Test
    void noListenerAtAllFailsTheRenderingWithTheValuesToSet() {
        assertThatThrownBy(() -> HelmChart.render(
                        CHART,
                        null,
                        Map.of(
                                "transport.plainMqtt.enabled",
                                "false",
                                "transport.wsPort",
                                "0",
                                "transport.tls.enabled",
                                "false")))
                .hasMessageContaining("transport.plainMqtt.enabled=false needs another MQTT listener");
    }

    private Path chartCopy() throws IOException {
        Path copy = temp.resolve("tributary");
        HelmChart.copy(CHART, copy);
        return copy;
    }

    /** Deletes the env entry of a variable (its "- name:" line and the lines below it up to the next entry). */
    private static void dropEnv(Path template, String variable) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(template));
        int start = lines.indexOf("            - name: " + variable);
        assertThat(start).as(variable + " in " + template).isNotNegative();
        int end = start + 1;
        while (end < lines.size() && lines.get(end).startsWith("              ")) {
            end++;
        }
        lines.subList(start, end).clear();
        Files.write(template, lines);
    }

    @Test
    void aTemplateThatDropsARequiredVariableFailsTheChecks() throws IOException {
        Path chart = chartCopy();
        dropEnv(chart.resolve("templates/transport.yaml"), "SESSION_SERVICE_URL");
        dropEnv(chart.resolve("templates/services.yaml"), "POSTGRES_PASSWORD");
        assertThat(HelmChart.lint(chart).isFailed()).isFalse();
        List<String> findings = findings(HelmChart.deployment(chart, null, Map.of()));
        assertThat(findings)
                .anyMatch(
                        f -> f.startsWith("StatefulSet/transport container transport: SESSION_SERVICE_URL must be set"))
                .anyMatch(f -> f.startsWith("Deployment/session container session: POSTGRES_PASSWORD must be set"));
    }

    /** Issue 34: the in-cluster Redis and the services' REDIS_URL both take the password from secrets.redis. */
    @Test
    void theInClusterRedisAndEveryServiceReadTheRedisPasswordFromTheSecretOfTheValues() {
        Manifests manifests = HelmChart.deployment(CHART, null, Map.of("secrets.redis", "my-redis"));
        for (String workload :
                List.of("StatefulSet/redis", "StatefulSet/transport", "Deployment/routing", "Deployment/session")) {
            Map<String, Object> object = manifests
                    .find(workload.substring(0, workload.indexOf('/')), workload.substring(workload.indexOf('/') + 1))
                    .orElseThrow();
            assertThat(Yamls.list(Manifests.containers(object).get(0).get("env")))
                    .as(workload)
                    .anyMatch(e -> "REDIS_PASSWORD".equals(Yamls.text(e, "name"))
                            && "my-redis".equals(Yamls.text(e, "valueFrom.secretKeyRef.name")));
        }
        assertThat(manifests.configMapData("tributary-session-stores"))
                .containsEntry("REDIS_URL", "redis://:${REDIS_PASSWORD}@redis:6379");
    }

    @Test
    void aTemplateThatDropsTheRedisPasswordFailsTheChecks() throws IOException {
        Path chart = chartCopy();
        dropEnv(chart.resolve("templates/data-stores.yaml"), "REDIS_PASSWORD");
        dropEnv(chart.resolve("templates/services.yaml"), "REDIS_PASSWORD");
        List<String> findings = findings(HelmChart.deployment(chart, null, Map.of()));
        assertThat(findings)
                .anyMatch(f -> f.equals("StatefulSet/redis: REDIS_PASSWORD is not read from a Secret (secretKeyRef)"))
                .anyMatch(f -> f.equals("Deployment/routing container routing: REDIS_URL names REDIS_PASSWORD, which"
                        + " is not read from a Secret"));
    }

    @Test
    void aGracePeriodValueTooShortForTheDrainFailsTheChecks() {
        Manifests manifests = HelmChart.deployment(CHART, null, Map.of("transport.drain.drainTimeout", "60s"));
        assertThat(findings(manifests))
                .anyMatch(
                        f -> f.contains("terminationGracePeriodSeconds 70 is shorter than preStop 20 s + drain 60 s"));
    }

    /** Issue 34: the NLB sends the PROXY protocol, the nodes read it and limit connections per client address. */
    @Test
    void theNlbSendsTheProxyProtocolAndTheNodesReadItAndLimitPerAddress() {
        Manifests manifests = HelmChart.deployment(CHART, null, Map.of());
        assertThat(Yamls.strings(Yamls.at(
                                manifests.find("Service", "transport-mqtt").orElseThrow(), "metadata.annotations"))
                        .get(ClientAddressChecks.PROXY_PROTOCOL_ANNOTATION))
                .isEqualTo("*");
        assertThat(findings(HelmChart.deployment(CHART, null, Map.of("transport.proxyProtocol.enabled", "false"))))
                .anyMatch(f -> f.startsWith("Service/transport-mqtt: the NLB does not send the PROXY protocol"))
                .anyMatch(f -> f.startsWith("StatefulSet/transport container transport: behind Service/transport-mqtt"
                        + " without TRIBUTARY_PROXY_PROTOCOL=true"));
        assertThat(findings(HelmChart.deployment(CHART, null, Map.of("transport.maxConnectionRatePerIp", "0"))))
                .anyMatch(
                        f -> f.equals("StatefulSet/transport container transport: MQTT_MAX_CONNECTION_RATE_PER_IP is 0:"
                                + " the per-address connection rate is off"));
    }

    /** Issue 34: transport.wsAllowedOrigins is the nodes' origin list; none by default (same-origin), never *. */
    @Test
    void theWebSocketOriginsOfTheValuesReachTheNodesAndAnyPageIsReported() {
        assertThat(transportEnv(Map.of())).doesNotContainKey(WebSocketOrigins.VARIABLE);
        assertThat(transportEnv(Map.of("transport.wsAllowedOrigins", "https://console.example.com")))
                .containsEntry(WebSocketOrigins.VARIABLE, "https://console.example.com");
        assertThat(findings(HelmChart.deployment(CHART, null, Map.of("transport.wsAllowedOrigins", "*"))))
                .anyMatch(f -> f.startsWith(
                        "StatefulSet/transport container transport: " + WebSocketOrigins.VARIABLE + " is *"));
    }

    private Map<String, String> transportEnv(Map<String, Object> values) {
        Manifests manifests = HelmChart.deployment(CHART, null, values);
        Map<String, Object> container = Manifests.containers(
                        manifests.find("StatefulSet", "transport").orElseThrow())
                .get(0);
        return ContainerEnv.of(container, manifests, CONTEXT.scriptSecrets(), "", new ArrayList<>())
                .values();
    }

    @Test
    void aNetworkPolicyOnAPortThePodsDoNotHaveOrAdmittingNoPodsIsReported() {
        Manifests manifests = HelmChart.deployment(CHART, null, Map.of());
        Map<String, Object> session = manifests.find("NetworkPolicy", "session").orElseThrow();
        Map<String, Object> rule =
                Yamls.map(Yamls.listAt(session, "spec.ingress").get(0));
        Yamls.map(Yamls.list(rule.get("ports")).get(0)).put("port", "htttp");
        Yamls.mapAt(Yamls.list(rule.get("from")).get(0), "podSelector")
                .put(
                        "matchExpressions",
                        List.of(Map.of(
                                "key", "app.kubernetes.io/name", "operator", "In", "values", List.of("transports"))));
        assertThat(ManifestChecks.check(manifests, CONTEXT))
                .anyMatch(f -> f.equals("NetworkPolicy/session: port htttp is no container port of Deployment/session"))
                .anyMatch(f -> f.startsWith("NetworkPolicy/session: admits pods") && f.contains("transports"));
    }
}
