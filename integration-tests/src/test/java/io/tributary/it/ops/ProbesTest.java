package io.tributary.it.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kubernetes probes of every service (k8s/aws/base, docker-compose, HAProxy use these paths): liveness depends
 * on nothing outside the process, readiness on what the service needs to do its job. They are on each service's
 * management port only: session-service's REST and internal API ports answer 404 there (issue 34).
 */
@ExtendWith(LogsOnFailure.class)
class ProbesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static TributaryCluster cluster;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private JsonNode get(String url) throws Exception {
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(url + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static List<String> components(JsonNode health) {
        List<String> names = new ArrayList<>();
        health.path("components").propertyNames().forEach(names::add);
        return names;
    }

    private void assertProbes(String baseUrl, String... readinessComponents) throws Exception {
        JsonNode liveness = get(baseUrl + "/actuator/health/liveness");
        assertThat(liveness.path("status").asString()).isEqualTo("UP");
        JsonNode readiness = get(baseUrl + "/actuator/health/readiness");
        assertThat(readiness.path("status").asString()).isEqualTo("UP");
        assertThat(components(readiness)).containsExactlyInAnyOrder(readinessComponents);
        for (String component : readinessComponents) {
            assertThat(readiness
                            .path("components")
                            .path(component)
                            .path("status")
                            .asString())
                    .as(component)
                    .isEqualTo("UP");
        }
    }

    @Test
    void transport_nodes_are_ready_once_registered_warmed_up_and_while_kafka_takes_publishes() throws Exception {
        for (int node = 0; node < 2; node++) {
            assertProbes(cluster.transportManagementUrl(node), "readinessState", "nodeRegistration", "kafka", "warmUp");
        }
    }

    @Test
    void session_service_is_ready_while_postgresql_redis_and_kafka_answer() throws Exception {
        assertProbes(cluster.sessionManagementUrl(), "readinessState", "db", "redis", "kafka");
    }

    @Test
    void routing_service_is_ready_while_its_loop_runs() throws Exception {
        assertProbes(cluster.routingManagementUrl(), "readinessState", "routing");
        JsonNode routing = get(cluster.routingManagementUrl() + "/actuator/health/readiness")
                .path("components")
                .path("routing");
        assertThat(routing.path("details").path("state").asString()).isEqualTo("RUNNING");
    }

    @Test
    void session_service_serves_the_actuator_on_its_management_port_only() throws Exception {
        for (String base : List.of(cluster.sessionApiUrl(), cluster.sessionInternalUrl())) {
            for (String path : List.of("/actuator/health/readiness", "/actuator/prometheus")) {
                HttpResponse<Void> response = http.send(
                        HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
                        HttpResponse.BodyHandlers.discarding());
                assertThat(response.statusCode()).as(base + path).isEqualTo(404);
            }
        }
    }
}
