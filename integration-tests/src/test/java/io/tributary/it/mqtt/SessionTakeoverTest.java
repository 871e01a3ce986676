package io.tributary.it.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5DisconnectException;
import com.hivemq.client.mqtt.mqtt5.message.disconnect.Mqtt5DisconnectReasonCode;
import io.tributary.it.support.AdminRequests;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** One client id, two transport nodes: the newer connection wins, decided by the session epoch. */
@ExtendWith(LogsOnFailure.class)
class SessionTakeoverTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static TributaryCluster cluster;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private static Mqtt5BlockingClient client(int port, String clientId, CompletableFuture<Throwable> disconnected) {
        return com.hivemq.client.mqtt.MqttClient.builder()
                .useMqttVersion5()
                .identifier(clientId)
                .serverHost("127.0.0.1")
                .serverPort(port)
                .addDisconnectedListener(ctx -> {
                    if (ctx.getSource() == MqttDisconnectSource.SERVER) {
                        disconnected.complete(ctx.getCause());
                    }
                })
                .buildBlocking();
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> response = http.send(
                AdminRequests.to(cluster.sessionApiUrl(), path).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as("GET " + path + " -> " + response.body())
                .isEqualTo(200);
        return JSON.readTree(response.body());
    }

    @Test
    void second_connection_on_another_node_takes_the_session_over() throws Exception {
        String clientId = "it-takeover-" + UUID.randomUUID().toString().substring(0, 8);
        CompletableFuture<Throwable> firstClosed = new CompletableFuture<>();
        CompletableFuture<Throwable> secondClosed = new CompletableFuture<>();
        Mqtt5BlockingClient first = client(cluster.mqttPort(0), clientId, firstClosed);
        Mqtt5BlockingClient second = client(cluster.mqttPort(1), clientId, secondClosed);
        first.connect();
        assertThat(get("/api/v1/sessions/" + clientId)
                        .path("session")
                        .path("nodeId")
                        .asString())
                .isEqualTo(cluster.nodeId(0));

        second.connect();
        Throwable cause = firstClosed.get(15, TimeUnit.SECONDS);
        assertThat(cause).isInstanceOf(Mqtt5DisconnectException.class);
        assertThat(((Mqtt5DisconnectException) cause).getMqttMessage().getReasonCode())
                .isEqualTo(Mqtt5DisconnectReasonCode.SESSION_TAKEN_OVER);
        assertThat(secondClosed).isNotDone();

        JsonNode session = get("/api/v1/sessions/" + clientId).path("session");
        assertThat(session.path("nodeId").asString()).isEqualTo(cluster.nodeId(1));
        assertThat(session.path("connected").asBoolean()).isTrue();
        second.disconnect();
    }

    @Test
    void rest_api_lists_sessions_and_subscriptions_and_disconnects_a_client() throws Exception {
        String clientId = "it-rest-" + UUID.randomUUID().toString().substring(0, 8);
        CompletableFuture<Throwable> closed = new CompletableFuture<>();
        Mqtt5BlockingClient client = client(cluster.mqttPort(0), clientId, closed);
        client.connect();
        client.subscribeWith().topicFilter("it/rest/" + clientId + "/#").send();

        JsonNode page = get("/api/v1/sessions?page=0&size=1000");
        assertThat(page.path("items").toString()).contains(clientId);
        JsonNode subscriptions = get("/api/v1/sessions/" + clientId + "/subscriptions");
        assertThat(subscriptions.toString()).contains("it/rest/" + clientId + "/#");

        HttpResponse<String> response = http.send(
                AdminRequests.to(cluster.sessionApiUrl(), "/api/v1/sessions/" + clientId + "/disconnect")
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isBetween(200, 299);
        Throwable cause = closed.get(15, TimeUnit.SECONDS);
        assertThat(((Mqtt5DisconnectException) cause).getMqttMessage().getReasonCode())
                .isEqualTo(Mqtt5DisconnectReasonCode.ADMINISTRATIVE_ACTION);

        HttpResponse<String> unknown = http.send(
                AdminRequests.to(cluster.sessionApiUrl(), "/api/v1/sessions/no-such-client-" + clientId)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("error");

        // Without the admin bearer token the same API answers 401 with a JSON message.
        HttpResponse<String> anonymous = http.send(
                HttpRequest.newBuilder(URI.create(cluster.sessionApiUrl() + "/api/v1/sessions/" + clientId))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.body()).contains("bearer token");
    }
}
