package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.common.kafka.DownlinkType;
import io.tributary.common.kafka.Partitioning;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.session.expiry.ExpirySweeper;
import io.tributary.session.support.FeedReader;
import io.tributary.session.support.PresenceReader;
import io.tributary.session.support.TestEngines;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.HashMap;
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
import tools.jackson.databind.JsonNode;

/** The internal API (connect, subscribe, unsubscribe, disconnect) and session expiry: database rows, feed records, downlink commands and presence. */
@Order(2)
class InternalApiIntegrationTest extends ServiceTestBase {

    @Autowired
    ExpirySweeper sweeper;

    @Test
    void resumedSessionMovesToTheNewNodeAndTheOldNodeIsToldToLetGo() throws Exception {
        ConnectApi.ConnectResponse first = connect("alice", "node-a", false, 3600);
        long e1 = first.epoch();
        assertThat(e1).isPositive();
        assertThat(first.sessionPresent()).isFalse();
        assertThat(first.subscriptions()).isEmpty();
        assertThat(PresenceReader.atEpoch(redis, "alice", e1))
                .containsEntry("node", "node-a")
                .containsKey("connectedAt");

        Response suback = post(
                SessionApi.SUBSCRIBE,
                new SubscribeApi.SubscribeRequest(
                        "alice",
                        e1,
                        "node-a",
                        List.of(
                                sub("sensors/+/temp", 1),
                                sub("sensors/1/temp", 2),
                                sub("a/#/b", 0),
                                sub("$share/g/x", 1),
                                sub("$share//x", 1))));
        assertThat(suback.status()).isEqualTo(200);
        assertThat(codes(suback.body())).containsExactly(1, 2, 0x8F, 1, 0x8F);
        assertThat(jdbc.sql("SELECT filter FROM subscriptions WHERE client_id = 'alice'")
                        .query(String.class)
                        .list())
                .containsExactlyInAnyOrder("sensors/+/temp", "sensors/1/temp", "$share/g/x");
        // A shared subscription keeps its full filter on the feed but is placed by its inner filter.
        ConsumerRecord<byte[], byte[]> shared = last(TopicNames.SUBSCRIPTIONS_EXACT, "$share/g/x", "alice");
        assertThat(shared.partition()).isEqualTo(Partitioning.partitionFor("x", PARTITIONS));

        SubscriptionRecord wildcard = lastValue(TopicNames.SUBSCRIPTIONS_WILDCARD, "sensors/+/temp", "alice");
        assertThat(wildcard.nodeId()).isEqualTo("node-a");
        assertThat(wildcard.epoch()).isEqualTo(e1);
        assertThat(wildcard.qos()).isEqualTo(1);
        ConsumerRecord<byte[], byte[]> exact = last(TopicNames.SUBSCRIPTIONS_EXACT, "sensors/1/temp", "alice");
        assertThat(exact.partition()).isEqualTo(Partitioning.partitionFor("sensors/1/temp", PARTITIONS));

        ConnectApi.ConnectResponse second = connect("alice", "node-b", false, 3600);
        long e2 = second.epoch();
        assertThat(e2).isGreaterThan(e1);
        assertThat(second.sessionPresent()).isTrue();
        assertThat(second.subscriptions())
                .extracting(SubscribeApi.Subscription::filter)
                .containsExactlyInAnyOrder("sensors/+/temp", "sensors/1/temp", "$share/g/x");

        List<ConsumerRecord<byte[], byte[]>> commands = FeedReader.withKey(
                FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.downlink("node-a")), utf8("alice"));
        assertThat(commands).hasSize(1);
        ConsumerRecord<byte[], byte[]> takeover = commands.get(0);
        assertThat(takeover.value()).isNull();
        assertThat(DownlinkType.fromHeader(RecordHeaders.readBytes(takeover.headers(), RecordHeaders.DOWNLINK_TYPE)))
                .isEqualTo(DownlinkType.TAKEOVER);
        assertThat(RecordHeaders.readLong(takeover.headers(), RecordHeaders.EPOCH))
                .isEqualTo(e2);

        SubscriptionRecord moved = lastValue(TopicNames.SUBSCRIPTIONS_EXACT, "sensors/1/temp", "alice");
        assertThat(moved.nodeId()).isEqualTo("node-b");
        assertThat(moved.epoch()).isEqualTo(e2);
        assertThat(lastValue(TopicNames.SUBSCRIPTIONS_WILDCARD, "sensors/+/temp", "alice")
                        .nodeId())
                .isEqualTo("node-b");
        assertThat(lastValue(TopicNames.SUBSCRIPTIONS_EXACT, "$share/g/x", "alice")
                        .nodeId())
                .isEqualTo("node-b");
        assertThat(PresenceReader.atEpoch(redis, "alice", e2)).containsEntry("node", "node-b");

        // The taken-over connection still speaks with its old epoch: refused, and its late DISCONNECT changes nothing.
        Response stale = post(
                SessionApi.SUBSCRIBE,
                new SubscribeApi.SubscribeRequest("alice", e1, "node-a", List.of(sub("late/one", 0))));
        assertThat(stale.status()).isEqualTo(409);
        assertThat(stale.body().get("error").asString()).contains("epoch " + e1 + " ");
        assertThat(post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("alice", e1, "node-a", 0))
                        .status())
                .isEqualTo(200);
        JsonNode details = get("/api/v1/sessions/alice").body();
        assertThat(details.get("session").get("connected").asBoolean()).isTrue();
        assertThat(details.get("session").get("nodeId").asString()).isEqualTo("node-b");
        assertThat(details.get("presence").get("nodeId").asString()).isEqualTo("node-b");
        assertThat(redis.sync().hget("tributary:presence:alice", "epoch")).isEqualTo(Long.toString(e2));
    }

    @Test
    void persistentSessionGoesOfflineAndACleanStartDiscardsIt() throws Exception {
        long e1 = connect("bob", "node-a", false, 600).epoch();
        assertThat(codes(post(
                                SessionApi.SUBSCRIBE,
                                new SubscribeApi.SubscribeRequest("bob", e1, "node-a", List.of(sub("x/y", 1))))
                        .body()))
                .containsExactly(1);
        SubscribeApi.UnsubscribeOutcome unsuback = unsubscribeBatch(
                        new SubscribeApi.UnsubscribeRequest("bob", e1, List.of("x/y", "never/was")))
                .get(0);
        assertThat(unsuback.done().reasonCodes()).containsExactly(0x00, 0x11);
        ConsumerRecord<byte[], byte[]> tombstone = last(TopicNames.SUBSCRIPTIONS_EXACT, "x/y", "bob");
        assertThat(tombstone.value()).isNull();
        assertThat(RecordHeaders.readLong(tombstone.headers(), RecordHeaders.EPOCH))
                .isEqualTo(e1);

        post(SessionApi.SUBSCRIBE, new SubscribeApi.SubscribeRequest("bob", e1, "node-a", List.of(sub("z/#", 2))));
        Instant before = Instant.now();
        assertThat(post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("bob", e1, "node-a", 600))
                        .status())
                .isEqualTo(200);
        Map<String, Object> row = jdbc.sql(
                        "SELECT connected, node_id, expires_at FROM sessions WHERE client_id = 'bob'")
                .query()
                .singleRow();
        assertThat(row.get("connected")).isEqualTo(false);
        assertThat(row.get("node_id")).isNull();
        assertThat(toInstant(row.get("expires_at"))).isCloseTo(before.plusSeconds(600), within(5, ChronoUnit.SECONDS));
        SubscriptionRecord offline = lastValue(TopicNames.SUBSCRIPTIONS_WILDCARD, "z/#", "bob");
        assertThat(offline.online()).isFalse();
        assertThat(offline.qos()).isEqualTo(2);
        PresenceReader.awaitGone(redis, "bob");

        assertThat(post(
                                SessionApi.SUBSCRIBE,
                                new SubscribeApi.SubscribeRequest("bob", e1, "node-a", List.of(sub("q", 0))))
                        .status())
                .isEqualTo(409);

        ConnectApi.ConnectResponse clean = connect("bob", "node-b", true, 600);
        assertThat(clean.epoch()).isGreaterThan(e1);
        assertThat(clean.sessionPresent()).isFalse();
        assertThat(clean.subscriptions()).isEmpty();
        ConsumerRecord<byte[], byte[]> removed = last(TopicNames.SUBSCRIPTIONS_WILDCARD, "z/#", "bob");
        assertThat(removed.value()).isNull();
        assertThat(RecordHeaders.readLong(removed.headers(), RecordHeaders.EPOCH))
                .isEqualTo(clean.epoch());
        assertThat(jdbc.sql("SELECT count(*) FROM subscriptions WHERE client_id = 'bob'")
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    void expiredSessionsAreNotResumedAndAreSwept() throws Exception {
        long carol = connect("carol", "node-a", false, 60).epoch();
        post(SessionApi.SUBSCRIBE, new SubscribeApi.SubscribeRequest("carol", carol, "node-a", List.of(sub("c/1", 1))));
        post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("carol", carol, "node-a", 60));
        expireNow("carol");
        ConnectApi.ConnectResponse again = connect("carol", "node-a", false, 60);
        assertThat(again.sessionPresent()).isFalse();
        assertThat(again.epoch()).isGreaterThan(carol);
        assertThat(last(TopicNames.SUBSCRIPTIONS_EXACT, "c/1", "carol").value()).isNull();

        long dave = connect("dave", "node-a", false, 60).epoch();
        post(SessionApi.SUBSCRIBE, new SubscribeApi.SubscribeRequest("dave", dave, "node-a", List.of(sub("d/+", 0))));
        post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("dave", dave, "node-a", 60));
        long erin = connect("erin", "node-a", false, NEVER).epoch();
        Instant erinLeft = Instant.now();
        post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("erin", erin, "node-a", NEVER));
        // "Never" is the maximum session expiry (SESSION_EXPIRY_MAX, 7 days by default), far from the sweep.
        assertThat(toInstant(jdbc.sql("SELECT expires_at FROM sessions WHERE client_id = 'erin'")
                        .query()
                        .singleRow()
                        .get("expires_at")))
                .isCloseTo(erinLeft.plus(java.time.Duration.ofDays(7)), within(60, ChronoUnit.SECONDS));
        expireNow("dave");

        assertThat(sweeper.sweep()).isGreaterThanOrEqualTo(1);
        assertThat(jdbc.sql("SELECT client_id FROM sessions WHERE client_id IN ('dave', 'erin')")
                        .query(String.class)
                        .list())
                .containsExactly("erin");
        assertThat(jdbc.sql("SELECT count(*) FROM subscriptions WHERE client_id = 'dave'")
                        .query(Long.class)
                        .single())
                .isZero();
        ConsumerRecord<byte[], byte[]> tombstone = last(TopicNames.SUBSCRIPTIONS_WILDCARD, "d/+", "dave");
        assertThat(tombstone.value()).isNull();
        assertThat(RecordHeaders.readLong(tombstone.headers(), RecordHeaders.EPOCH))
                .isEqualTo(dave);
        assertThat(sweeper.sweep()).isZero();
    }

    @Test
    void zeroExpiryDisconnectEndsTheSession() throws Exception {
        long frank = connect("frank", "node-a", false, 0).epoch();
        post(SessionApi.SUBSCRIBE, new SubscribeApi.SubscribeRequest("frank", frank, "node-a", List.of(sub("f/1", 1))));
        assertThat(post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("frank", frank, "node-a", 0))
                        .status())
                .isEqualTo(200);
        assertThat(get("/api/v1/sessions/frank").status()).isEqualTo(404);
        assertThat(last(TopicNames.SUBSCRIPTIONS_EXACT, "f/1", "frank").value()).isNull();
        PresenceReader.awaitGone(redis, "frank");
        assertThat(connect("frank", "node-a", false, 0).epoch()).isGreaterThan(frank);
    }

    /**
     * Every way a session row disappears (clean session ended by a DISCONNECT with expiry 0, expiry sweep, admin
     * DELETE) is followed by a CONNECT of the same client id: its epoch is above all earlier ones, so a late TAKEOVER
     * of an earlier incarnation (transport nodes close a connection whose epoch is lower than the command's) cannot
     * close the new connection.
     */
    @Test
    void epochsKeepGrowingWhenTheSessionIsDeletedAndCreatedAgain() throws Exception {
        long first = connect("ghost", "node-a", true, 0).epoch();
        // A takeover first, so the incarnation about to be deleted ends above epoch 1 and left a TAKEOVER behind.
        long second = connect("ghost", "node-b", true, 0).epoch();
        assertThat(second).isGreaterThan(first);
        List<ConsumerRecord<byte[], byte[]>> takeovers = FeedReader.withKey(
                FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.downlink("node-a")), utf8("ghost"));
        assertThat(takeovers).hasSize(1);
        long lateTakeoverEpoch = RecordHeaders.readLong(takeovers.get(0).headers(), RecordHeaders.EPOCH);
        assertThat(lateTakeoverEpoch).isEqualTo(second);

        assertThat(post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("ghost", second, "node-b", 0))
                        .status())
                .isEqualTo(200);
        assertGone("ghost");
        long afterDisconnect = connect("ghost", "node-c", true, 0).epoch();
        assertThat(afterDisconnect).isGreaterThan(second).isGreaterThan(lateTakeoverEpoch);

        post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("ghost", afterDisconnect, "node-c", 60));
        expireNow("ghost");
        assertThat(sweeper.sweep()).isGreaterThanOrEqualTo(1);
        assertGone("ghost");
        long afterSweep = connect("ghost", "node-c", false, 60).epoch();
        assertThat(afterSweep).isGreaterThan(afterDisconnect);

        post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("ghost", afterSweep, "node-c", 60));
        assertThat(send("DELETE", "/api/v1/sessions/ghost").status()).isEqualTo(204);
        assertGone("ghost");
        long afterDelete = connect("ghost", "node-c", false, 60).epoch();
        assertThat(afterDelete).isGreaterThan(afterSweep);

        assertThat(jdbc.sql("SELECT epoch FROM sessions WHERE client_id = 'ghost'")
                        .query(Long.class)
                        .single())
                .isEqualTo(afterDelete);
        assertThat(PresenceReader.atEpoch(redis, "ghost", afterDelete)).containsKey("node");
    }

    @Test
    void concurrentConnectsOfOneClientAreSerialized() throws Exception {
        int connects = 6;
        ExecutorService pool = Executors.newFixedThreadPool(connects);
        Map<String, Long> epochByNode = new HashMap<>();
        try {
            Map<String, Future<ConnectApi.ConnectResponse>> answers = new HashMap<>();
            for (int i = 0; i < connects; i++) {
                String node = "race-" + i;
                answers.put(node, pool.submit(() -> connect("zed", node, false, 60)));
            }
            for (Map.Entry<String, Future<ConnectApi.ConnectResponse>> answer : answers.entrySet()) {
                epochByNode.put(
                        answer.getKey(),
                        answer.getValue().get(30, TimeUnit.SECONDS).epoch());
            }
        } finally {
            pool.shutdownNow();
        }
        List<String> nodesInEpochOrder = epochByNode.entrySet().stream()
                .sorted(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey)
                .toList();
        assertThat(epochByNode.values()).hasSize(connects).doesNotHaveDuplicates();
        long maxEpoch = Collections.max(epochByNode.values());
        String winner = nodesInEpochOrder.get(connects - 1);

        Map<String, Object> row = jdbc.sql("SELECT epoch, node_id FROM sessions WHERE client_id = 'zed'")
                .query()
                .singleRow();
        assertThat(row.get("epoch")).isEqualTo(maxEpoch);
        assertThat(row.get("node_id")).isEqualTo(winner);
        assertThat(PresenceReader.atEpoch(redis, "zed", maxEpoch)).containsEntry("node", winner);

        // The connects took the lock one after the other, each taking over the previous one: every node but the
        // winner got exactly one TAKEOVER, carrying the epoch of the next connect, above its own (so it lets go).
        for (int k = 0; k < connects; k++) {
            String node = nodesInEpochOrder.get(k);
            List<ConsumerRecord<byte[], byte[]>> commands = FeedReader.withKey(
                    FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.downlink(node)), utf8("zed"));
            if (node.equals(winner)) {
                assertThat(commands).as("commands to the winner %s", node).isEmpty();
                continue;
            }
            assertThat(commands).as("commands to %s", node).hasSize(1);
            assertThat(RecordHeaders.readLong(commands.get(0).headers(), RecordHeaders.EPOCH))
                    .as("TAKEOVER epoch sent to %s (own epoch %d)", node, epochByNode.get(node))
                    .isEqualTo(epochByNode.get(nodesInEpochOrder.get(k + 1)))
                    .isGreaterThan(epochByNode.get(node));
        }
    }

    @Test
    void malformedRequestsAreRefusedWith400() throws Exception {
        Response badNode =
                post(SessionApi.CONNECT, new ConnectApi.ConnectRequest("gus", "bad node!", true, 0, 5, 30, null, null));
        assertThat(badNode.status()).isEqualTo(400);
        assertThat(badNode.body().get("error").asString()).contains("nodeId");
        long gus = connect("gus", "node-a", true, 0).epoch();
        assertThat(post(
                                SessionApi.SUBSCRIBE,
                                new SubscribeApi.SubscribeRequest(
                                        "gus",
                                        gus,
                                        "node-a",
                                        List.of(new SubscribeApi.Subscription("a", 3, false, false, 0))))
                        .status())
                .isEqualTo(400);
        HttpResponse<String> garbage = http.send(
                HttpRequest.newBuilder(uri(SessionApi.CONNECT))
                        .header(SessionApi.TOKEN_HEADER, INTERNAL_TOKEN)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{nope"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(garbage.statusCode()).isEqualTo(400);
        assertThat(json.readTree(garbage.body()).get("error").asString()).isNotBlank();
    }

    private void assertGone(String clientId) {
        assertThat(jdbc.sql("SELECT count(*) FROM sessions WHERE client_id = :id")
                        .param("id", clientId)
                        .query(Long.class)
                        .single())
                .as("session row of %s", clientId)
                .isZero();
    }
}
