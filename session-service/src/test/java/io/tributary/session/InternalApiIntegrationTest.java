package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.tributary.common.kafka.DownlinkType;
import io.tributary.common.kafka.Partitioning;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.session.SessionApi;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.session.expiry.ExpirySweeper;
import io.tributary.session.support.FeedReader;
import io.tributary.session.support.TestEngines;
import tools.jackson.databind.JsonNode;

/** The internal API (connect, subscribe, unsubscribe, disconnect) and session expiry: database rows, feed records, downlink commands and presence. */
@Order(2)
class InternalApiIntegrationTest extends ServiceTestBase {

    @Autowired
    ExpirySweeper sweeper;

    @Test
    void resumedSessionMovesToTheNewNodeAndTheOldNodeIsToldToLetGo() throws Exception {
        SessionApi.ConnectResponse first = connect("alice", "node-a", false, 3600);
        assertThat(first.epoch()).isEqualTo(1);
        assertThat(first.sessionPresent()).isFalse();
        assertThat(first.subscriptions()).isEmpty();
        assertThat(redis.sync().hgetall("tributary:presence:alice"))
                .containsEntry("node", "node-a").containsEntry("epoch", "1").containsKey("connectedAt");

        Response suback = post(SessionApi.SUBSCRIBE, new SessionApi.SubscribeRequest("alice", 1, "node-a", List.of(
                sub("sensors/+/temp", 1), sub("sensors/1/temp", 2), sub("a/#/b", 0), sub("$share/g/x", 1))));
        assertThat(suback.status()).isEqualTo(200);
        assertThat(codes(suback.body())).containsExactly(1, 2, 0x8F, 0x9E);
        assertThat(jdbc.sql("SELECT filter FROM subscriptions WHERE client_id = 'alice' ORDER BY filter")
                .query(String.class).list()).containsExactly("sensors/+/temp", "sensors/1/temp");

        SubscriptionRecord wildcard = lastValue(TopicNames.SUBSCRIPTIONS_WILDCARD, "sensors/+/temp", "alice");
        assertThat(wildcard.nodeId()).isEqualTo("node-a");
        assertThat(wildcard.epoch()).isEqualTo(1);
        assertThat(wildcard.qos()).isEqualTo(1);
        ConsumerRecord<byte[], byte[]> exact = last(TopicNames.SUBSCRIPTIONS_EXACT, "sensors/1/temp", "alice");
        assertThat(exact.partition()).isEqualTo(Partitioning.partitionFor("sensors/1/temp", PARTITIONS));

        SessionApi.ConnectResponse second = connect("alice", "node-b", false, 3600);
        assertThat(second.epoch()).isEqualTo(2);
        assertThat(second.sessionPresent()).isTrue();
        assertThat(second.subscriptions()).extracting(SessionApi.Subscription::filter)
                .containsExactly("sensors/+/temp", "sensors/1/temp");

        List<ConsumerRecord<byte[], byte[]>> commands = FeedReader.withKey(
                FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.downlink("node-a")), utf8("alice"));
        assertThat(commands).hasSize(1);
        ConsumerRecord<byte[], byte[]> takeover = commands.get(0);
        assertThat(takeover.value()).isNull();
        assertThat(DownlinkType.fromHeader(RecordHeaders.readBytes(takeover.headers(), RecordHeaders.DOWNLINK_TYPE)))
                .isEqualTo(DownlinkType.TAKEOVER);
        assertThat(RecordHeaders.readLong(takeover.headers(), RecordHeaders.EPOCH)).isEqualTo(2L);

        SubscriptionRecord moved = lastValue(TopicNames.SUBSCRIPTIONS_EXACT, "sensors/1/temp", "alice");
        assertThat(moved.nodeId()).isEqualTo("node-b");
        assertThat(moved.epoch()).isEqualTo(2);
        assertThat(lastValue(TopicNames.SUBSCRIPTIONS_WILDCARD, "sensors/+/temp", "alice").nodeId())
                .isEqualTo("node-b");
        assertThat(redis.sync().hgetall("tributary:presence:alice"))
                .containsEntry("node", "node-b").containsEntry("epoch", "2");

        // The taken-over connection still speaks with epoch 1: refused, and its late DISCONNECT changes nothing.
        Response stale = post(SessionApi.SUBSCRIBE,
                new SessionApi.SubscribeRequest("alice", 1, "node-a", List.of(sub("late/one", 0))));
        assertThat(stale.status()).isEqualTo(409);
        assertThat(stale.body().get("error").asString()).contains("epoch 1");
        assertThat(post(SessionApi.DISCONNECT, new SessionApi.DisconnectRequest("alice", 1, "node-a", 0)).status())
                .isEqualTo(200);
        JsonNode details = get("/api/v1/sessions/alice").body();
        assertThat(details.get("session").get("connected").asBoolean()).isTrue();
        assertThat(details.get("session").get("nodeId").asString()).isEqualTo("node-b");
        assertThat(details.get("presence").get("nodeId").asString()).isEqualTo("node-b");
        assertThat(redis.sync().hget("tributary:presence:alice", "epoch")).isEqualTo("2");
    }

    @Test
    void persistentSessionGoesOfflineAndACleanStartDiscardsIt() throws Exception {
        connect("bob", "node-a", false, 600);
        assertThat(codes(post(SessionApi.SUBSCRIBE, new SessionApi.SubscribeRequest("bob", 1, "node-a",
                List.of(sub("x/y", 1)))).body())).containsExactly(1);
        Response unsuback = post(SessionApi.UNSUBSCRIBE,
                new SessionApi.UnsubscribeRequest("bob", 1, List.of("x/y", "never/was")));
        assertThat(codes(unsuback.body())).containsExactly(0x00, 0x11);
        ConsumerRecord<byte[], byte[]> tombstone = last(TopicNames.SUBSCRIPTIONS_EXACT, "x/y", "bob");
        assertThat(tombstone.value()).isNull();
        assertThat(RecordHeaders.readLong(tombstone.headers(), RecordHeaders.EPOCH)).isEqualTo(1L);

        post(SessionApi.SUBSCRIBE, new SessionApi.SubscribeRequest("bob", 1, "node-a", List.of(sub("z/#", 2))));
        Instant before = Instant.now();
        assertThat(post(SessionApi.DISCONNECT, new SessionApi.DisconnectRequest("bob", 1, "node-a", 600)).status())
                .isEqualTo(200);
        Map<String, Object> row = jdbc.sql("SELECT connected, node_id, expires_at FROM sessions WHERE client_id = 'bob'")
                .query().singleRow();
        assertThat(row.get("connected")).isEqualTo(false);
        assertThat(row.get("node_id")).isNull();
        assertThat(toInstant(row.get("expires_at"))).isCloseTo(before.plusSeconds(600), within(5, ChronoUnit.SECONDS));
        SubscriptionRecord offline = lastValue(TopicNames.SUBSCRIPTIONS_WILDCARD, "z/#", "bob");
        assertThat(offline.online()).isFalse();
        assertThat(offline.qos()).isEqualTo(2);
        assertThat(redis.sync().exists("tributary:presence:bob")).isZero();

        assertThat(post(SessionApi.SUBSCRIBE,
                new SessionApi.SubscribeRequest("bob", 1, "node-a", List.of(sub("q", 0)))).status()).isEqualTo(409);

        SessionApi.ConnectResponse clean = connect("bob", "node-b", true, 600);
        assertThat(clean.epoch()).isEqualTo(2);
        assertThat(clean.sessionPresent()).isFalse();
        assertThat(clean.subscriptions()).isEmpty();
        ConsumerRecord<byte[], byte[]> removed = last(TopicNames.SUBSCRIPTIONS_WILDCARD, "z/#", "bob");
        assertThat(removed.value()).isNull();
        assertThat(RecordHeaders.readLong(removed.headers(), RecordHeaders.EPOCH)).isEqualTo(2L);
        assertThat(jdbc.sql("SELECT count(*) FROM subscriptions WHERE client_id = 'bob'").query(Long.class).single())
                .isZero();
    }

    @Test
    void expiredSessionsAreNotResumedAndAreSwept() throws Exception {
        connect("carol", "node-a", false, 60);
        post(SessionApi.SUBSCRIBE, new SessionApi.SubscribeRequest("carol", 1, "node-a", List.of(sub("c/1", 1))));
        post(SessionApi.DISCONNECT, new SessionApi.DisconnectRequest("carol", 1, "node-a", 60));
        expireNow("carol");
        SessionApi.ConnectResponse again = connect("carol", "node-a", false, 60);
        assertThat(again.sessionPresent()).isFalse();
        assertThat(again.epoch()).isEqualTo(2);
        assertThat(last(TopicNames.SUBSCRIPTIONS_EXACT, "c/1", "carol").value()).isNull();

        connect("dave", "node-a", false, 60);
        post(SessionApi.SUBSCRIBE, new SessionApi.SubscribeRequest("dave", 1, "node-a", List.of(sub("d/+", 0))));
        post(SessionApi.DISCONNECT, new SessionApi.DisconnectRequest("dave", 1, "node-a", 60));
        connect("erin", "node-a", false, NEVER);
        post(SessionApi.DISCONNECT, new SessionApi.DisconnectRequest("erin", 1, "node-a", NEVER));
        assertThat(jdbc.sql("SELECT expires_at FROM sessions WHERE client_id = 'erin'").query().singleRow())
                .containsEntry("expires_at", null);
        expireNow("dave");

        assertThat(sweeper.sweep()).isGreaterThanOrEqualTo(1);
        assertThat(jdbc.sql("SELECT client_id FROM sessions WHERE client_id IN ('dave', 'erin')")
                .query(String.class).list()).containsExactly("erin");
        assertThat(jdbc.sql("SELECT count(*) FROM subscriptions WHERE client_id = 'dave'").query(Long.class).single())
                .isZero();
        ConsumerRecord<byte[], byte[]> tombstone = last(TopicNames.SUBSCRIPTIONS_WILDCARD, "d/+", "dave");
        assertThat(tombstone.value()).isNull();
        assertThat(RecordHeaders.readLong(tombstone.headers(), RecordHeaders.EPOCH)).isEqualTo(1L);
        assertThat(sweeper.sweep()).isZero();
    }

    @Test
    void zeroExpiryDisconnectEndsTheSession() throws Exception {
        connect("frank", "node-a", false, 0);
        post(SessionApi.SUBSCRIBE, new SessionApi.SubscribeRequest("frank", 1, "node-a", List.of(sub("f/1", 1))));
        assertThat(post(SessionApi.DISCONNECT, new SessionApi.DisconnectRequest("frank", 1, "node-a", 0)).status())
                .isEqualTo(200);
        assertThat(get("/api/v1/sessions/frank").status()).isEqualTo(404);
        assertThat(last(TopicNames.SUBSCRIPTIONS_EXACT, "f/1", "frank").value()).isNull();
        assertThat(redis.sync().exists("tributary:presence:frank")).isZero();
        assertThat(connect("frank", "node-a", false, 0).epoch()).isEqualTo(1);
    }

    @Test
    void concurrentConnectsOfOneClientAreSerialized() throws Exception {
        int connects = 6;
        ExecutorService pool = Executors.newFixedThreadPool(connects);
        try {
            List<Future<SessionApi.ConnectResponse>> answers = new ArrayList<>();
            for (int i = 0; i < connects; i++) {
                String node = "race-" + i;
                answers.add(pool.submit(() -> connect("zed", node, false, 60)));
            }
            List<Long> epochs = new ArrayList<>();
            for (Future<SessionApi.ConnectResponse> answer : answers) {
                epochs.add(answer.get(30, TimeUnit.SECONDS).epoch());
            }
            assertThat(epochs).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L);
        } finally {
            pool.shutdownNow();
        }
        Map<String, Object> row = jdbc.sql("SELECT epoch, node_id FROM sessions WHERE client_id = 'zed'")
                .query().singleRow();
        assertThat(row.get("epoch")).isEqualTo(6L);
        assertThat(redis.sync().hgetall("tributary:presence:zed"))
                .containsEntry("epoch", "6").containsEntry("node", (String) row.get("node_id"));
    }

    @Test
    void malformedRequestsAreRefusedWith400() throws Exception {
        Response badNode = post(SessionApi.CONNECT,
                new SessionApi.ConnectRequest("gus", "bad node!", true, 0, 5, 30, null, null));
        assertThat(badNode.status()).isEqualTo(400);
        assertThat(badNode.body().get("error").asString()).contains("nodeId");
        connect("gus", "node-a", true, 0);
        assertThat(post(SessionApi.SUBSCRIBE, new SessionApi.SubscribeRequest("gus", 1, "node-a",
                List.of(new SessionApi.Subscription("a", 3, false, false, 0)))).status()).isEqualTo(400);
        HttpResponse<String> garbage = http.send(HttpRequest.newBuilder(uri(SessionApi.CONNECT))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{nope"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(garbage.statusCode()).isEqualTo(400);
        assertThat(json.readTree(garbage.body()).get("error").asString()).isNotBlank();
    }
}
