package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Each kind of mistake the manifest checks exist for, made once in the real in-cluster deployment, is reported. */
class ManifestMutationTest {

    private static final DeployContext CONTEXT = DeployContext.load();

    private static List<String> findingsAfter(String kind, String name, Consumer<Map<String, Object>> change) {
        Manifests manifests = DeployContext.deployment("in-cluster");
        change.accept(manifests.find(kind, name).orElseThrow());
        List<String> findings = new ArrayList<>(ManifestChecks.check(manifests, CONTEXT));
        findings.addAll(ServiceChecks.check(manifests, CONTEXT));
        manifests.all().forEach(o -> findings.addAll(KubeSchema.validate(o)));
        return findings;
    }

    private static Map<String, Object> container(Map<String, Object> workload) {
        return Manifests.containers(workload).get(0);
    }

    private static void addEnv(Map<String, Object> workload, String name, Object value) {
        Map<String, Object> variable = new LinkedHashMap<>();
        variable.put("name", name);
        variable.put("value", value);
        Yamls.list(container(workload).get("env")).add(variable);
    }

    @Test
    void aVariableTheServiceDoesNotReadIsReported() {
        assertThat(findingsAfter("StatefulSet", "transport", w -> addEnv(w, "MQTT_KEEPALIVE", "60")))
                .anyMatch(f -> f.contains("MQTT_KEEPALIVE is not read by transport-service"));
    }

    /** The in-cluster Redis as before issue 34: no requirepass, a bare ping as readiness probe. */
    @Test
    void anInClusterRedisWithoutItsPasswordIsReported() {
        assertThat(findingsAfter("StatefulSet", "redis", w -> {
                    Map<String, Object> redis = container(w);
                    redis.remove("command");
                    redis.put("args", List.of("redis-server", "--appendonly", "yes", "--dir", "/data"));
                    Yamls.map(redis.get("readinessProbe"))
                            .put("exec", new LinkedHashMap<>(Map.of("command", List.of("redis-cli", "ping"))));
                }))
                .anyMatch(f -> f.startsWith("StatefulSet/redis: Redis starts without requirepass"))
                .anyMatch(f -> f.startsWith("StatefulSet/redis: the readiness probe 'redis-cli ping' does not"));
    }

    @Test
    void aServiceUrlWithoutTheInClusterRedisPasswordIsReported() {
        assertThat(findingsAfter(
                        "ConfigMap",
                        "tributary-session-stores",
                        m -> Yamls.map(m.get("data")).put("REDIS_URL", "redis://redis:6379")))
                .anyMatch(f -> f.startsWith("Deployment/routing container routing: REDIS_URL redis://redis:6379 does"
                        + " not carry the in-cluster Redis's password"))
                .anyMatch(f -> f.startsWith("StatefulSet/transport container transport: REDIS_URL"))
                .anyMatch(f -> f.startsWith("Deployment/session container session: REDIS_URL"));
    }

    @Test
    void aNumberWhereKubernetesWantsAStringIsReported() {
        assertThat(findingsAfter("Deployment", "routing", w -> addEnv(w, "TRIBUTARY_ROUTING_MAX_POLL_RECORDS", 500)))
                .anyMatch(f -> f.contains("env TRIBUTARY_ROUTING_MAX_POLL_RECORDS must be a string"));
    }

    @Test
    void anOverrideOfTheSharedTopicSettingsIsReported() {
        assertThat(findingsAfter("Deployment", "session", w -> addEnv(w, "TRIBUTARY_PUBLISH_PARTITIONS", "12")))
                .anyMatch(f -> f.startsWith("services disagree on TRIBUTARY_PUBLISH_PARTITIONS"));
    }

    @Test
    void anUnknownFieldFailsTheSchema() {
        assertThat(findingsAfter("Deployment", "session", w -> container(w).put("readinesProbe", Map.of())))
                .anyMatch(f -> f.contains("readinesProbe") && f.contains("is not defined"));
    }

    @Test
    void aSelectorThatMissesThePodsIsReported() {
        assertThat(findingsAfter(
                        "StatefulSet",
                        "transport",
                        w -> Yamls.mapAt(w, "spec.selector.matchLabels").put("app.kubernetes.io/name", "transports")))
                .anyMatch(f -> f.startsWith("StatefulSet/transport: selector"));
    }

    @Test
    void aServiceTargetPortThatDoesNotExistIsReported() {
        assertThat(findingsAfter(
                        "Service",
                        "session",
                        s -> Yamls.map(Yamls.listAt(s, "spec.ports").get(0)).put("targetPort", "htttp")))
                .anyMatch(f -> f.startsWith("Service/session: targetPort htttp"));
    }

    @Test
    void aProbeOnTheWrongPathIsReported() {
        assertThat(findingsAfter(
                        "StatefulSet",
                        "transport",
                        w -> Yamls.mapAt(container(w), "readinessProbe.httpGet").put("path", "/actuator/health")))
                .anyMatch(f -> f.contains("readinessProbe must GET /actuator/health/readiness"));
    }

    @Test
    void aGracePeriodTooShortForTheDrainIsReported() {
        assertThat(findingsAfter(
                        "StatefulSet", "transport", w -> Manifests.podSpec(w).put("terminationGracePeriodSeconds", 30)))
                .anyMatch(f -> f.contains("terminationGracePeriodSeconds 30 is shorter than preStop 20 s"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aDrainTimeoutLongerThanTheGracePeriodAllowsIsReported() {
        assertThat(findingsAfter(
                        "StatefulSet",
                        "transport",
                        w -> ((List<Object>) container(w).get("env"))
                                .add(new java.util.LinkedHashMap<>(
                                        Map.of("name", "MQTT_DRAIN_TIMEOUT", "value", "60s")))))
                .anyMatch(f -> f.contains("+ drain 60 s + graceful shutdown 30 s"));
    }

    @Test
    void routersBeyondThePartitionCountAreReported() {
        assertThat(findingsAfter(
                        "HorizontalPodAutoscaler",
                        "routing",
                        h -> Yamls.mapAt(h, "spec").put("maxReplicas", 96)))
                .anyMatch(f -> f.contains("maxReplicas 96 > 48 publish partitions"));
    }

    @Test
    void aCustomMetricNobodyServesIsReported() {
        assertThat(findingsAfter(
                        "HorizontalPodAutoscaler",
                        "transport",
                        h -> Yamls.mapAt(Yamls.listAt(h, "spec.metrics").get(1), "pods.metric")
                                .put("name", "mqtt_connections")))
                .anyMatch(f -> f.contains("mqtt_connections is not served by the Prometheus adapter"))
                .anyMatch(f -> f.contains("is not registered in transport-service's code"));
    }

    @Test
    void anNlbCheckingTheWrongPortIsReported() {
        assertThat(findingsAfter(
                        "Service",
                        "transport-mqtt",
                        s -> Yamls.mapAt(s, "metadata.annotations")
                                .put("service.beta.kubernetes.io/aws-load-balancer-healthcheck-port", "8080")))
                .anyMatch(f -> f.startsWith("Service/transport-mqtt: NLB health check"));
    }

    /** Issue 34: without the PROXY protocol on both sides, or with the per-address rate off, the build fails. */
    @Test
    void anNlbWithoutTheProxyProtocolIsReported() {
        assertThat(findingsAfter(
                        "Service",
                        "transport-mqtt",
                        s -> Yamls.mapAt(s, "metadata.annotations")
                                .remove(ClientAddressChecks.PROXY_PROTOCOL_ANNOTATION)))
                .anyMatch(f -> f.startsWith("Service/transport-mqtt: the NLB does not send the PROXY protocol"));
    }

    @Test
    void aTransportThatDoesNotReadTheProxyProtocolOrLimitsNoAddressIsReported() {
        assertThat(findingsAfter("StatefulSet", "transport", w -> {
                    List<Object> env = Yamls.list(container(w).get("env"));
                    env.removeIf(e -> List.of("TRIBUTARY_PROXY_PROTOCOL", "MQTT_MAX_CONNECTION_RATE_PER_IP")
                            .contains(Yamls.text(e, "name")));
                    addEnv(w, "MQTT_MAX_CONNECTION_RATE_PER_IP", "0");
                }))
                .anyMatch(f -> f.contains("without TRIBUTARY_PROXY_PROTOCOL=true"))
                .anyMatch(f ->
                        f.contains("MQTT_MAX_CONNECTION_RATE_PER_IP is 0: the per-address connection rate is off"));
    }

    @Test
    void aPerfJobWithoutItsProxyHeaderIsReported() {
        assertThat(findingsAfter("Job", "perf-subscribers", j -> {
                    Map<String, Object> container = container(j);
                    container.put(
                            "args",
                            Yamls.list(container.get("args")).stream()
                                    .map(a -> String.valueOf(a).replace(" --proxy-protocol", ""))
                                    .toList());
                }))
                .anyMatch(
                        f -> f.startsWith("Job/perf-subscribers: the transport nodes expect a PROXY protocol header"));
    }

    @Test
    void aNodeIdThatIsNotThePodNameIsReported() {
        assertThat(findingsAfter("StatefulSet", "transport", w -> {
                    List<Object> env = Yamls.list(container(w).get("env"));
                    env.removeIf(e -> "TRIBUTARY_NODE_ID".equals(Yamls.text(e, "name")));
                    addEnv(w, "TRIBUTARY_NODE_ID", "transport");
                }))
                .anyMatch(f -> f.contains("a literal TRIBUTARY_NODE_ID shared by 3 replicas"));
    }

    @Test
    void aSecretNoScriptCreatesIsReported() {
        assertThat(findingsAfter(
                        "Deployment",
                        "session",
                        w -> Yamls.list(container(w).get("env")).stream()
                                .filter(e -> "POSTGRES_PASSWORD".equals(Yamls.text(e, "name")))
                                .forEach(e ->
                                        Yamls.mapAt(e, "valueFrom.secretKeyRef").put("name", "postgres-credentials"))))
                .anyMatch(f -> f.contains("Secret key postgres-credentials/POSTGRES_PASSWORD, which neither"));
    }

    @Test
    void anUnknownNodePoolIsReported() {
        assertThat(findingsAfter(
                        "Deployment",
                        "routing",
                        w -> Yamls.mapAt(Manifests.podSpec(w), "nodeSelector")
                                .put(DeployContext.POOL_LABEL, "compute")))
                .anyMatch(f -> f.contains("node group pool compute does not exist"));
    }

    @Test
    void aPerfScenarioThatDoesNotExistIsReported() {
        assertThat(findingsAfter(
                        "Job",
                        "perf-publishers",
                        j -> Yamls.list(container(j).get("env")).stream()
                                .filter(e -> "SCENARIO".equals(Yamls.text(e, "name")))
                                .forEach(e -> Yamls.map(e).put("value", "perf-tests/scenarios/nope.yaml"))))
                .anyMatch(f -> f.contains("SCENARIO perf-tests/scenarios/nope.yaml is no file"))
                .anyMatch(f -> f.startsWith("perf Jobs disagree"));
    }
}
