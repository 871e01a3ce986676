package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.DownlinkType;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.session.metrics.ConnectedSessionsRefresher;
import io.tributary.session.metrics.SessionMetrics;
import io.tributary.session.support.FeedReader;
import io.tributary.session.support.TestEngines;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** The admin REST API, health and metrics. */
@Order(3)
class AdminApiIntegrationTest extends ServiceTestBase {

    @Autowired
    ConnectedSessionsRefresher refresher;

    @Autowired
    SessionMetrics metrics;

    @Test
    void adminApiListsInspectsDisconnectsAndDeletes() throws Exception {
        long adm1 = connect("adm-1", "node-c", false, 300).epoch();
        post(
                SessionApi.SUBSCRIBE,
                new SubscribeApi.SubscribeRequest("adm-1", adm1, "node-c", List.of(sub("adm/1", 1))));
        long adm2 = connect("adm-2", "node-c", false, 300).epoch();
        post(
                SessionApi.SUBSCRIBE,
                new SubscribeApi.SubscribeRequest("adm-2", adm2, "node-c", List.of(sub("adm/+", 0))));
        post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("adm-2", adm2, "node-c", 300));
        connect("adm-3", "node-c", false, 300);

        JsonNode page0 = get("/api/v1/sessions?page=0&size=2").body();
        JsonNode page1 = get("/api/v1/sessions?page=1&size=2").body();
        assertThat(page0.get("size").asInt()).isEqualTo(2);
        assertThat(page0.get("total").asLong()).isGreaterThanOrEqualTo(3);
        List<String> ids = List.of(
                page0.get("items").get(0).get("clientId").asString(),
                page0.get("items").get(1).get("clientId").asString(),
                page1.get("items").get(0).get("clientId").asString());
        assertThat(ids).isSorted().doesNotHaveDuplicates();
        JsonNode offline = get("/api/v1/sessions?connected=false&size=1000").body();
        assertThat(offline.get("items").valueStream().map(n -> n.get("clientId").asString()))
                .contains("adm-2")
                .doesNotContain("adm-1", "adm-3");
        Response tooBig = get("/api/v1/sessions?size=1001");
        assertThat(tooBig.status()).isEqualTo(400);
        assertThat(tooBig.body().get("error").asString()).contains("size");

        JsonNode one = get("/api/v1/sessions/adm-1").body();
        assertThat(one.get("session").get("epoch").asLong()).isEqualTo(adm1);
        // Timestamps are ISO-8601 strings (documented in API.md).
        assertThat(Instant.parse(one.get("session").get("connectedAt").asString()))
                .isBefore(Instant.now());
        assertThat(one.get("session").get("expiresAt").isNull()).isTrue();
        assertThat(Instant.parse(one.get("presence").get("connectedAt").asString()))
                .isBefore(Instant.now());
        assertThat(one.get("presenceError").isNull()).isTrue();
        assertThat(one.get("presence").get("nodeId").asString()).isEqualTo("node-c");
        Response unknown = get("/api/v1/sessions/nobody");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.body().get("error").asString()).contains("nobody");
        JsonNode subs = get("/api/v1/sessions/adm-1/subscriptions").body();
        assertThat(subs.get(0).get("filter").asString()).isEqualTo("adm/1");
        assertThat(subs.get(0).get("qos").asInt()).isEqualTo(1);

        Response accepted = send("POST", "/api/v1/sessions/adm-1/disconnect");
        assertThat(accepted.status()).isEqualTo(202);
        assertThat(accepted.body().get("epoch").asLong()).isEqualTo(adm1);
        assertThat(accepted.body().get("nodeId").asString()).isEqualTo("node-c");
        assertThat(accepted.body().get("reasonCode").asInt()).isEqualTo(0x98);
        ConsumerRecord<byte[], byte[]> command = FeedReader.withKey(
                        FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.downlink("node-c")), utf8("adm-1"))
                .get(0);
        assertThat(command.value()).isNull();
        assertThat(DownlinkType.fromHeader(RecordHeaders.readBytes(command.headers(), RecordHeaders.DOWNLINK_TYPE)))
                .isEqualTo(DownlinkType.DISCONNECT);
        assertThat(RecordHeaders.readLong(command.headers(), RecordHeaders.EPOCH))
                .isEqualTo(adm1);
        assertThat(RecordHeaders.readInt(command.headers(), RecordHeaders.REASON_CODE))
                .isEqualTo(0x98);
        assertThat(send("POST", "/api/v1/sessions/adm-2/disconnect").status()).isEqualTo(409);

        assertThat(send("DELETE", "/api/v1/sessions/adm-1").status()).isEqualTo(409);
        assertThat(send("DELETE", "/api/v1/sessions/adm-2").status()).isEqualTo(204);
        assertThat(get("/api/v1/sessions/adm-2").status()).isEqualTo(404);
        assertThat(last(TopicNames.SUBSCRIPTIONS_WILDCARD, "adm/+", "adm-2").value())
                .isNull();
        assertThat(send("DELETE", "/api/v1/sessions/adm-2").status()).isEqualTo(404);
        // The deleted client's next session continues above the epochs of the deleted one.
        assertThat(connect("adm-2", "node-c", false, 300).epoch()).isGreaterThan(adm2);
    }

    @Test
    void healthAndMetricsAreExposed() throws Exception {
        connect("hank", "node-a", false, 0);
        connect("hank", "node-b", false, 0);
        Response health = get("/actuator/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body().get("status").asString()).isEqualTo("UP");
        for (String component : List.of("db", "redis", "kafka")) {
            assertThat(health.body()
                            .get("components")
                            .get(component)
                            .get("status")
                            .asString())
                    .as(component)
                    .isEqualTo("UP");
        }

        refresher.refresh();
        long connectedInDb = jdbc.sql("SELECT count(*) FROM sessions WHERE connected")
                .query(Long.class)
                .single();
        assertThat(metrics.connectedSessions()).isEqualTo(connectedInDb);
        HttpResponse<String> scrape = http.send(
                HttpRequest.newBuilder(uri("/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body())
                .contains("tributary_sessions_connected{")
                .contains("tributary_session_connects_total{")
                .contains("tributary_session_takeovers_total{")
                .containsPattern("tributary_kafka_produce_latency_seconds_count\\{[^}]*service=\"session\"");
        assertThat(metricValue(scrape.body(), "tributary_session_takeovers_total"))
                .isGreaterThanOrEqualTo(1.0);
        assertThat(metricValue(scrape.body(), "tributary_session_connects_total"))
                .isGreaterThanOrEqualTo(2.0);
    }
}
