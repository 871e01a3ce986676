package io.tributary.it.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import io.tributary.it.support.AdminRequests;
import io.tributary.it.support.Clients;
import io.tributary.it.support.ExtraTransport;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A transport node's warm-up (issue 33): before it reports ready, the node runs sessions of its own through the
 * whole cluster (its pipeline, session-service, Kafka, the router and back). Readiness holds until every one of them
 * connected, subscribed, got its messages back and left; they leave no session behind, session-service counts them
 * as warm-up authentications, and no outside subscriber of {@code #} sees their traffic.
 */
@ExtendWith(LogsOnFailure.class)
class WarmUpTest {

    private static final int SESSIONS = 200;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static TributaryCluster cluster;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private String get(String url, boolean admin) throws Exception {
        HttpRequest.Builder request = admin
                ? AdminRequests.to(
                        cluster.sessionApiUrl(),
                        url.substring(cluster.sessionApiUrl().length()))
                : HttpRequest.newBuilder(URI.create(url));
        HttpResponse<String> response = http.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(url + ": " + response.body()).isEqualTo(200);
        return response.body();
    }

    private double warmUpAuthentications() throws Exception {
        return get(cluster.sessionManagementUrl() + "/actuator/prometheus", false)
                .lines()
                .filter(l -> l.startsWith("tributary_auth_successes_total{") && l.contains("method=\"warm_up\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    @Test
    void the_node_is_ready_only_after_its_warm_up_sessions_went_through_the_cluster_and_left() throws Exception {
        List<String> seenByHash = new CopyOnWriteArrayList<>();
        Mqtt5BlockingClient everything = Clients.hive5(cluster.mqttPort(0), Clients.id("it-warm-all"));
        everything.connect();
        everything
                .toAsync()
                .subscribeWith()
                .topicFilter("#")
                .qos(MqttQos.AT_LEAST_ONCE)
                .callback(p -> seenByHash.add(p.getTopic().toString()))
                .send()
                .join();
        double authenticatedBefore = warmUpAuthentications();

        try (ExtraTransport node = cluster.startTransport(
                "it-warm-node",
                Map.of(
                        "TRIBUTARY_WARM_UP_ENABLED",
                        true,
                        "TRIBUTARY_WARM_UP_CONNECTIONS",
                        SESSIONS,
                        "TRIBUTARY_WARM_UP_CONCURRENCY",
                        20,
                        "TRIBUTARY_WARM_UP_MESSAGES",
                        4))) {
            // startTransport returned once the node was healthy, which includes the warm-up having ended.
            JsonNode warmUp = JSON.readTree(
                            get("http://127.0.0.1:" + node.managementPort() + "/actuator/health/readiness", false))
                    .path("components")
                    .path("warmUp");
            assertThat(warmUp.path("status").asString()).as("%s", warmUp).isEqualTo("UP");
            assertThat(warmUp.path("details").path("completed").asInt())
                    .as("%s", warmUp)
                    .isEqualTo(SESSIONS);
            assertThat(warmUp.path("details").path("failed").asInt())
                    .as("%s", warmUp)
                    .isZero();
            assertThat(warmUpAuthentications() - authenticatedBefore).isGreaterThanOrEqualTo(SESSIONS);

            // Sessions sort by client id and '$' comes before every letter and digit: any left would be first.
            // A session's end reaches session-service just after its client saw the UNSUBACK: wait a little.
            String sessions = "";
            for (long deadline = System.nanoTime() + 15_000_000_000L; System.nanoTime() < deadline; ) {
                sessions = get(cluster.sessionApiUrl() + "/api/v1/sessions?page=0&size=1000", true);
                if (!sessions.contains("$warmup/")) {
                    break;
                }
                Thread.sleep(200);
            }
            assertThat(sessions).doesNotContain("$warmup/");
        } finally {
            everything.disconnect();
        }
        assertThat(seenByHash).noneMatch(t -> t.startsWith("$warmup"));
    }

    @Test
    void an_outside_client_cannot_use_a_warm_up_client_id() {
        Mqtt5BlockingClient outsider = Clients.hive5(cluster.mqttPort(0), "$warmup/it-node-1/1");
        assertThatThrownBy(outsider::connect)
                .isInstanceOfSatisfying(
                        Mqtt5ConnAckException.class,
                        e -> assertThat(e.getMqttMessage().getReasonCode())
                                .isEqualTo(Mqtt5ConnAckReasonCode.CLIENT_IDENTIFIER_NOT_VALID));
    }
}
