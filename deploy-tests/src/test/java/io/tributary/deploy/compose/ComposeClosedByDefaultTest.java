package io.tributary.deploy.compose;

import static io.tributary.deploy.compose.ComposeEdits.compose;
import static io.tributary.deploy.compose.ComposeEdits.replace;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.compose.ComposeProject.Port;
import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.WebSocketOrigins;
import io.tributary.deploy.support.Yamls;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The compose stack is closed as shipped (issue 34): no secret in docker-compose.yml or .env, host ports on
 * 127.0.0.1 until the operator sets an address, Kafka, PostgreSQL and Redis not on the host. The mutation tests put
 * each opening back into the real files and expect it to be reported.
 */
class ComposeClosedByDefaultTest {

    private static final String OVERRIDE = "deploy/compose/kafka-on-host.yml";

    private static List<String> findings(String compose, String dotEnv) {
        return ComposeExposure.check(ComposeProject.parse(compose, dotEnv), Repo.read(".gitignore"));
    }

    private static String dotEnv() {
        return Repo.read(".env");
    }

    @Test
    void theShippedStackHasNoSecretNoHostPortOnEveryInterfaceAndNoDataStoreOnTheHost() {
        assertThat(findings(compose(), dotEnv())).isEmpty();
    }

    @Test
    void aPasswordInDotEnvIsReported() {
        String opened = dotEnv() + "\nPOSTGRES_PASSWORD=tributary-local\n";
        assertThat(findings(compose(), opened)).anyMatch(f -> f.startsWith(".env holds the secret POSTGRES_PASSWORD"));
    }

    @Test
    void aSecretSetInTheComposeFileIsReported() {
        String opened = replace(
                compose(),
                "      TRIBUTARY_INTERNAL_TOKEN: $${TRIBUTARY_INTERNAL_ROUTING_TOKEN}\n",
                "      TRIBUTARY_INTERNAL_TOKEN: local-token\n");
        assertThat(findings(opened, dotEnv()))
                .anyMatch(
                        f -> f.startsWith("routing: the secret TRIBUTARY_INTERNAL_TOKEN is set in docker-compose.yml"))
                .contains("routing: TRIBUTARY_INTERNAL_TOKEN does not come from a secret");
    }

    /** The Redis of docker-compose.yml as before issue 34: no password, a bare ping, URLs without credentials. */
    @Test
    void aRedisWithoutItsPasswordIsReported() {
        String opened = replace(compose(), "        requirepass \"$$REDIS_PASSWORD\"\n", "");
        opened = replace(
                opened,
                "[\"CMD-SHELL\", \"REDISCLI_AUTH=\\\"$$REDIS_PASSWORD\\\" redis-cli ping | grep -q PONG\"]",
                "[\"CMD\", \"redis-cli\", \"ping\"]");
        assertThat(findings(opened, dotEnv()))
                .anyMatch(f -> f.startsWith("redis: Redis starts without requirepass"))
                .anyMatch(f -> f.startsWith("redis: the healthcheck CMD redis-cli ping does not authenticate"));
    }

    @Test
    void aRedisUrlWithoutThePasswordOrWithItWrittenOutIsReported() {
        String url = "REDIS_URL: redis://:$${REDIS_PASSWORD}@redis:6379\n";
        String without = replace(compose(), url, "REDIS_URL: redis://redis:6379\n");
        assertThat(findings(without, dotEnv()))
                .anyMatch(f -> f.startsWith("session: REDIS_URL redis://redis:6379 does not carry the password"));
        String written = replace(compose(), url, "REDIS_URL: redis://:hunter2@redis:6379\n");
        assertThat(findings(written, dotEnv()))
                .anyMatch(f -> f.startsWith("session: REDIS_URL carries a password in its URL in docker-compose.yml"));
    }

    @Test
    void aHostPortWithoutAnAddressIsReported() {
        String opened = replace(
                compose(), "\"${REST_HOST_ADDRESS:-127.0.0.1}:${REST_HOST_PORT}:8080\"", "\"${REST_HOST_PORT}:8080\"");
        assertThat(findings(opened, dotEnv()))
                .anyMatch(f -> f.equals("session: host port 8080 is bound to every interface by default; bind it to"
                        + " 127.0.0.1 unless the operator sets an address"));
    }

    /**
     * issue 34, "One port for everything": the shipped stack publishes session-service's REST port only, and a
     * published management or internal API port is reported, on the loopback too (nothing on the host needs them).
     */
    @Test
    void theManagementAndInternalApiPortsAreNotOnTheHost() {
        ComposeProject project = ComposeProject.parse(compose(), dotEnv());
        assertThat(project.services().get("session").ports())
                .extracting(Port::target)
                .containsExactly(8080);
        for (String service : List.of("routing", "transport-1", "transport-2")) {
            assertThat(project.services().get(service).ports()).as(service).isEmpty();
        }
        String rest = "      - \"${REST_HOST_ADDRESS:-127.0.0.1}:${REST_HOST_PORT}:8080\"\n";
        String management = replace(compose(), rest, rest + "      - \"127.0.0.1:8085:8085\"\n");
        assertThat(findings(management, dotEnv()))
                .anyMatch(f -> f.startsWith("session: publishes its management port 8085 on the host"));
        String internal = replace(compose(), rest, rest + "      - \"127.0.0.1:8086:8086\"\n");
        assertThat(findings(internal, dotEnv()))
                .anyMatch(f -> f.startsWith("session: publishes its internal API port 8086 on the host"));
        String routing = replace(
                compose(),
                "      - deploy/compose/secrets/kafka-routing.env\n    healthcheck:\n",
                "      - deploy/compose/secrets/kafka-routing.env\n    ports:\n      - \"127.0.0.1:8082:8082\"\n"
                        + "    healthcheck:\n");
        assertThat(findings(routing, dotEnv()))
                .anyMatch(f -> f.startsWith("routing: publishes its management port 8082 on the host"));
    }

    /** The one setting that opens MQTT to the network, and only MQTT: the REST API stays on the loopback. */
    @Test
    void mqttHostAddressOpensTheMqttPortsOnly() {
        String opened = replace(dotEnv(), "MQTT_HOST_ADDRESS=127.0.0.1", "MQTT_HOST_ADDRESS=0.0.0.0");
        ComposeProject project = ComposeProject.parse(compose(), opened);
        assertThat(project.services().get("haproxy").ports())
                .extracting(Port::hostIp)
                .containsOnly("0.0.0.0");
        assertThat(project.services().get("session").ports())
                .extracting(Port::hostIp)
                .containsOnly("127.0.0.1");
    }

    /** Issue 34: the transports take MQTT over WebSocket from the admin console's page, not from any page. */
    @Test
    void webSocketUpgradesComeFromTheConsolesOriginsOnlyAndAnyPageIsReported() {
        for (String node : List.of("transport-1", "transport-2")) {
            assertThat(ComposeProject.parse(compose(), dotEnv())
                            .services()
                            .get(node)
                            .environment())
                    .containsEntry(WebSocketOrigins.VARIABLE, "http://127.0.0.1:8080,http://localhost:8080");
        }
        String opened = replace(
                dotEnv(),
                "WEBSOCKET_ALLOWED_ORIGINS=http://127.0.0.1:8080,http://localhost:8080",
                "WEBSOCKET_ALLOWED_ORIGINS=*");
        assertThat(findings(compose(), opened))
                .anyMatch(f -> f.startsWith("transport-1: " + WebSocketOrigins.VARIABLE + " is *"))
                .anyMatch(f -> f.startsWith("transport-2: " + WebSocketOrigins.VARIABLE + " is *"));
    }

    @Test
    void aPublishedKafkaPortIsReported() {
        String opened = replace(
                compose(),
                "    volumes:\n      - kafka-data:/var/lib/kafka/data\n",
                "    ports:\n      - \"127.0.0.1:9094:9094\"\n    volumes:\n      - kafka-data:/var/lib/kafka/data\n");
        assertThat(findings(opened, dotEnv())).anyMatch(f -> f.startsWith("kafka: publishes [Port[hostIp=127.0.0.1"));
    }

    @Test
    void anEnvFileThatIsNotGitIgnoredIsReported() {
        ComposeProject project = ComposeProject.parse(
                compose(),
                dotEnv(),
                Map.of(
                        "deploy/compose/secrets/postgres.env", Map.of("POSTGRES_PASSWORD", "x"),
                        "deploy/compose/secrets/internal-transport.env",
                                Map.of("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", "x"),
                        "deploy/compose/secrets/internal-routing.env", Map.of("TRIBUTARY_INTERNAL_ROUTING_TOKEN", "y"),
                        "deploy/compose/secrets/admin.env",
                                Map.of("TRIBUTARY_ADMIN_USER", "admin", "TRIBUTARY_ADMIN_PASSWORD", "x"),
                        "deploy/compose/secrets/redis.env", Map.of("REDIS_PASSWORD", "x")));
        assertThat(ComposeExposure.check(project, "target/\n"))
                .anyMatch(
                        f -> f.startsWith("postgres: env_file deploy/compose/secrets/postgres.env is not git-ignored"));
    }

    /** Kafka on the host is opt-in (an override file), on the loopback only, on the HOST listener. */
    @Test
    void theKafkaOnHostOverridePublishesTheHostListenerOnTheLoopbackOnly() {
        Map<String, Object> services = Yamls.mapAt(Yamls.load(Repo.read(OVERRIDE)), "services");
        assertThat(services).containsOnlyKeys("kafka");
        List<Object> ports = Yamls.listAt(services.get("kafka"), "ports");
        assertThat(ports).isNotEmpty();
        String listeners =
                ComposeProject.load().services().get("kafka").environment().get("KAFKA_LISTENERS");
        for (Object port : ports) {
            assertThat(String.valueOf(port)).startsWith("127.0.0.1:${KAFKA_HOST_PORT}:");
            String target = String.valueOf(port).substring(String.valueOf(port).lastIndexOf(':') + 1);
            assertThat(listeners).contains("HOST://:" + target);
        }
    }
}
