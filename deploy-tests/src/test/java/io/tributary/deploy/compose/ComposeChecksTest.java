package io.tributary.deploy.compose;

import static io.tributary.deploy.compose.ComposeEdits.compose;
import static io.tributary.deploy.compose.ComposeEdits.replace;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.support.Repo;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml, .env and deploy/haproxy/haproxy.cfg match the code (no Docker engine needed). The mutation
 * tests prove each kind of drift is caught: they change one line of the real files and expect a finding.
 */
class ComposeChecksTest {

    private static final ServiceCatalog CATALOG = ServiceCatalog.load();

    private static List<String> findings(String compose, String dotEnv, String haproxy) {
        return ComposeChecks.check(
                ComposeProject.parse(compose, dotEnv),
                HaproxyConfig.parse(haproxy),
                CATALOG,
                Repo.projectVersion(),
                Repo.kafkaVersion());
    }

    private static String dotEnv() {
        return Repo.read(".env");
    }

    private static String haproxy() {
        return Repo.read("deploy/haproxy/haproxy.cfg");
    }

    /** The real file with one occurrence of a text replaced; fails if the text is not there. */
    @Test
    void theComposeStackMatchesTheServices() {
        assertThat(findings(compose(), dotEnv(), haproxy())).isEmpty();
    }

    @Test
    void theStackRunsEveryServiceAndTwoTransportNodes() {
        ComposeProject project = ComposeProject.load();
        assertThat(project.services())
                .containsKeys(
                        "kafka", "postgres", "redis", "session", "routing", "transport-1", "transport-2", "haproxy");
        // MQTT, MQTT over TLS (passed through), MQTT over WebSocket.
        assertThat(project.services().get("haproxy").ports())
                .extracting(ComposeProject.Port::target)
                .containsExactly(1883, 8883, 8083);
        assertThat(project.services().get("session").ports())
                .extracting(ComposeProject.Port::target)
                .containsExactly(8080);
    }

    @Test
    void aVariableNoServiceReadsIsCaught() {
        String drifted = replace(
                compose(),
                "      MQTT_MAX_KEEP_ALIVE: \"300\"\n",
                "      MQTT_MAX_KEEP_ALIVE: \"300\"\n      MQTT_KEEPALIVE_MAX: \"300\"\n");
        assertThat(findings(drifted, dotEnv(), haproxy()))
                .anyMatch(f -> f.startsWith("transport-1: MQTT_KEEPALIVE_MAX is not read by transport-service"));
    }

    /** {@link ComposeEdits#replace} in the service {@code service} and after it (routing has SESSION_SERVICE_URL too). */
    private static String replaceFrom(String text, String service, String from, String to) {
        int at = text.indexOf("\n  " + service + ":\n");
        assertThat(at).as("the file still has service %s", service).isNotNegative();
        return text.substring(0, at) + replace(text.substring(at), from, to);
    }

    @Test
    void aMissingRequiredVariableIsCaught() {
        String drifted = replaceFrom(compose(), "transport-1", "      SESSION_SERVICE_URL: http://session:8086\n", "");
        assertThat(findings(drifted, dotEnv(), haproxy()))
                .anyMatch(f -> f.startsWith("transport-1: SESSION_SERVICE_URL must be set"));
    }

    @Test
    void aSharedNodeIdIsCaught() {
        String drifted = replace(compose(), "TRIBUTARY_NODE_ID: transport-2", "TRIBUTARY_NODE_ID: transport-1");
        assertThat(findings(drifted, dotEnv(), haproxy()))
                .anyMatch(f -> f.contains("share TRIBUTARY_NODE_ID transport-1"));
    }

    @Test
    void divergingTopicSettingsAreCaught() {
        String drifted = replace(
                compose(),
                "      MANAGEMENT_PORT: \"8082\"\n",
                "      MANAGEMENT_PORT: \"8082\"\n      TRIBUTARY_PUBLISH_PARTITIONS: \"24\"\n");
        assertThat(findings(drifted, dotEnv(), haproxy()))
                .anyMatch(f -> f.startsWith("services disagree on TRIBUTARY_PUBLISH_PARTITIONS"));
    }

    @Test
    void anAddressToAPortNothingListensOnIsCaught() {
        String drifted = replaceFrom(
                compose(),
                "transport-1",
                "SESSION_SERVICE_URL: http://session:8086",
                "SESSION_SERVICE_URL: http://session:8081");
        assertThat(findings(drifted, dotEnv(), haproxy()))
                .anyMatch(f -> f.startsWith("transport-1: SESSION_SERVICE_URL uses port 8081 of session"));
    }

    /** issue 34: the REST port answers 404 to /internal/**; a node pointed at it could not connect anybody. */
    @Test
    void aSessionServiceUrlOnTheRestPortIsCaught() {
        String drifted = replaceFrom(
                compose(),
                "transport-2",
                "SESSION_SERVICE_URL: http://session:8086",
                "SESSION_SERVICE_URL: http://session:8080");
        assertThat(findings(drifted, dotEnv(), haproxy()))
                .anyMatch(f -> f.startsWith("transport-2: SESSION_SERVICE_URL uses port 8080 of session, not its"
                        + " internal API port 8086"));
    }

    @Test
    void aHealthcheckOnTheWrongPortIsCaught() {
        String drifted = replace(
                compose(),
                "http://127.0.0.1:8082/actuator/health/readiness",
                "http://127.0.0.1:8080/actuator/health/readiness");
        assertThat(findings(drifted, dotEnv(), haproxy())).anyMatch(f -> f.startsWith("routing: healthcheck"));
    }

    /** issue 34: session-service's REST port no longer answers /actuator/** (404), so a check there never passes. */
    @Test
    void aSessionHealthcheckOnTheRestPortIsCaught() {
        String drifted = replace(
                compose(),
                "http://127.0.0.1:8085/actuator/health/readiness",
                "http://127.0.0.1:8080/actuator/health/readiness");
        assertThat(findings(drifted, dotEnv(), haproxy()))
                .anyMatch(f -> f.startsWith("session: healthcheck http://127.0.0.1:8080/actuator/health/readiness is"
                        + " not an actuator health path on MANAGEMENT_PORT 8085"));
    }

    @Test
    void versionDriftInDotEnvIsCaught() {
        String drifted = replace(dotEnv(), "KAFKA_VERSION=" + Repo.kafkaVersion(), "KAFKA_VERSION=3.9.0");
        assertThat(findings(compose(), drifted, haproxy()))
                .anyMatch(f -> f.startsWith(".env KAFKA_VERSION=3.9.0 is not the Kafka version of the build"));
    }

    @Test
    void anUndefinedComposeVariableIsCaught() {
        String drifted = replace(dotEnv(), "REDIS_VERSION=", "REDIS_VERSION_X=");
        assertThat(findings(compose(), drifted, haproxy()))
                .anyMatch(f -> f.startsWith("${REDIS_VERSION} has no value in .env"));
    }

    @Test
    void aWebSocketBackendOnAPortNoListenerUsesIsCaught() {
        String drifted =
                replace(haproxy(), "server transport-2 transport-2:8083", "server transport-2 transport-2:8084");
        assertThat(findings(compose(), dotEnv(), drifted))
                .anyMatch(f -> f.contains("transport-2: port 8084 is none of its MQTT listener ports"));
    }

    @Test
    void aTransportLeftOutOfHaproxyIsCaught() {
        String drifted =
                replace(haproxy(), "    server transport-2 transport-2:1883 check port 8081 send-proxy-v2\n", "");
        assertThat(findings(compose(), dotEnv(), drifted))
                .anyMatch(f -> f.startsWith("haproxy.cfg backend transports balances [transport-1]"));
    }

    /** Issue 34: HAProxy sends the client's address in a PROXY v2 header and the transports read it. */
    @Test
    void aServerLineWithoutTheProxyProtocolIsCaught() {
        String drifted = replace(
                haproxy(),
                "server transport-1 transport-1:8883 check port 8081 send-proxy-v2",
                "server transport-1 transport-1:8883 check port 8081");
        assertThat(findings(compose(), dotEnv(), drifted))
                .anyMatch(f -> f.equals("haproxy.cfg backend transports-tls server transport-1 does not send-proxy-v2:"
                        + " the transport expects a PROXY protocol header"));
    }

    @Test
    void aTransportThatDoesNotReadTheProxyProtocolIsCaught() {
        String drifted = replaceFrom(
                compose(), "transport-2", "TRIBUTARY_PROXY_PROTOCOL: \"true\"", "TRIBUTARY_PROXY_PROTOCOL: \"false\"");
        assertThat(findings(drifted, dotEnv(), haproxy()))
                .anyMatch(f -> f.startsWith("transport-2: behind HAProxy without TRIBUTARY_PROXY_PROTOCOL=true"));
        String left = replaceFrom(compose(), "transport-1", "      TRIBUTARY_PROXY_PROTOCOL: \"true\"\n", "");
        assertThat(findings(left, dotEnv(), haproxy()))
                .as("the service's default is off")
                .anyMatch(f -> f.startsWith("transport-1: behind HAProxy without TRIBUTARY_PROXY_PROTOCOL=true"));
    }

    @Test
    void aPerAddressConnectionRateSwitchedOffIsCaught() {
        String drifted = replaceFrom(
                compose(),
                "transport-1",
                "MQTT_MAX_CONNECTION_RATE_PER_IP: \"50\"",
                "MQTT_MAX_CONNECTION_RATE_PER_IP: \"0\"");
        assertThat(findings(drifted, dotEnv(), haproxy()))
                .anyMatch(f -> f.equals(
                        "transport-1: MQTT_MAX_CONNECTION_RATE_PER_IP is 0: the per-address connection rate is off"));
    }

    @Test
    void proxyTimeoutsShorterThanTheKeepAliveAreCaught() {
        String drifted = replace(haproxy(), "timeout client 10m", "timeout client 5m");
        assertThat(findings(compose(), dotEnv(), drifted)).anyMatch(f -> f.startsWith("haproxy.cfg timeout client"));
    }

    @Test
    void haproxyTimeUnitsFollowHaproxy() {
        assertThat(HaproxyConfig.seconds("10m")).isEqualTo(600);
        assertThat(HaproxyConfig.seconds("5s")).isEqualTo(5);
        assertThat(HaproxyConfig.seconds("1500")).isEqualTo(1.5);
    }

    @Test
    void anEnvFileTheSecretsScriptDoesNotWriteIsCaught() {
        String drifted = replace(
                compose(), "      - deploy/compose/secrets/admin.env\n", "      - deploy/compose/secrets/admins.env\n");
        assertThat(findings(drifted, dotEnv(), haproxy()))
                .anyMatch(
                        f -> f.startsWith("session: env_file deploy/compose/secrets/admins.env is none of the files"));
    }

    @Test
    void interpolationFollowsCompose() {
        Interpolation interpolation = new Interpolation(java.util.Map.of("A", "a", "EMPTY", ""));
        assertThat(interpolation.apply("$A-${A}-${EMPTY:-d}-${EMPTY-d}-${B:-x}-$$A-${A:+y}"))
                .isEqualTo("a-a-d--x-$A-y");
        assertThat(interpolation.problems()).isEmpty();
        interpolation.apply("${B}");
        assertThat(interpolation.problems()).hasSize(1);
    }
}
