package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.common.kafka.PublishProperties;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.LivenessApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.session.liveness.NodeLivenessDetector;
import io.tributary.session.liveness.NodeStore;
import io.tributary.session.support.FeedReader;
import io.tributary.session.support.PresenceReader;
import io.tributary.session.support.TestEngines;
import io.tributary.session.will.WillPublisher;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Node liveness (heartbeats, dead incarnations, sessions ended as their connections would have been) and wills
 * stored in session-service (published by the publisher when due, cancelled by a reconnect, dropped at a normal
 * disconnect), against real PostgreSQL, Kafka and Redis. The scheduled runs are switched off; the tests run the
 * detector and the publisher themselves.
 */
@Order(3)
class LivenessAndWillsIntegrationTest extends ServiceTestBase {

    @Autowired
    NodeLivenessDetector detector;

    @Autowired
    WillPublisher publisher;

    @Autowired
    NodeStore nodes;

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static ConnectApi.Will will(String topic, long delaySeconds) {
        return new ConnectApi.Will(
                topic,
                utf8("gone:" + topic),
                1,
                false,
                delaySeconds,
                new PublishProperties(
                        1,
                        "text/plain",
                        "reply/" + topic,
                        utf8("corr"),
                        3600L,
                        List.of(
                                new PublishProperties.UserProperty("k", "v1"),
                                new PublishProperties.UserProperty("k", "v2"))));
    }

    private long connect(String clientId, String nodeId, String incarnation, long expiry, ConnectApi.Will will)
            throws Exception {
        return connect(clientId, nodeId, incarnation, expiry, will, true);
    }

    private long connect(
            String clientId, String nodeId, String incarnation, long expiry, ConnectApi.Will will, boolean cleanStart)
            throws Exception {
        Response r = post(
                SessionApi.CONNECT,
                new ConnectApi.ConnectRequest(
                        clientId, nodeId, cleanStart, expiry, 5, 30, "127.0.0.1:1", null, incarnation, will));
        assertThat(r.status()).as("connect %s: %s", clientId, r.body()).isEqualTo(200);
        return r.body().get("epoch").asLong();
    }

    private boolean heartbeat(String nodeId, String incarnation) throws Exception {
        Response r = post(SessionApi.HEARTBEAT, new LivenessApi.HeartbeatRequest(nodeId, incarnation));
        assertThat(r.status()).isEqualTo(200);
        return !r.body().get("declaredDead").asBoolean();
    }

    private void silence(String nodeId, String incarnation) {
        jdbc.sql("UPDATE transport_nodes SET last_seen = now() - interval '1 minute'"
                        + " WHERE node_id = :n AND incarnation = :i")
                .param("n", nodeId)
                .param("i", incarnation)
                .update();
    }

    /** The detector declares only after it has run a whole timeout (1 s here) without failure. */
    private void detectUntilDead(String nodeId, String incarnation) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (jdbc.sql("SELECT count(*) FROM transport_nodes WHERE node_id = :n AND incarnation = :i"
                                + " AND dead_at IS NOT NULL")
                        .param("n", nodeId)
                        .param("i", incarnation)
                        .query(Long.class)
                        .single()
                == 0) {
            assertThat(System.nanoTime()).as("%s declared dead", nodeId).isLessThan(deadline);
            detector.check();
            Thread.sleep(100);
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> published(String topic) {
        return FeedReader.withKey(FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.PUBLISH), utf8(topic));
    }

    @Test
    void sessions_of_a_silent_node_end_like_dropped_connections_and_their_wills_are_published_once() throws Exception {
        String node = unique("ln-a");
        String inc = unique("i");
        assertThat(heartbeat(node, inc)).isTrue();
        String persistent = unique("lv-persist");
        String clean = unique("lv-clean");
        String delayed = unique("lv-delayed");
        String persistentTopic = "wills/" + persistent;
        String cleanTopic = "wills/" + clean;
        long persistentEpoch = connect(persistent, node, inc, 600, will(persistentTopic, 0));
        connect(clean, node, inc, 0, will(cleanTopic, 0));
        connect(delayed, node, inc, 600, will("wills/" + delayed, 30));
        assertThat(post(
                                SessionApi.SUBSCRIBE,
                                new SubscribeApi.SubscribeRequest(
                                        persistent, persistentEpoch, node, List.of(sub("lv/" + persistent, 1))))
                        .status())
                .isEqualTo(200);
        long cleanEpoch = jdbc.sql("SELECT epoch FROM sessions WHERE client_id = :c")
                .param("c", clean)
                .query(Long.class)
                .single();
        assertThat(post(
                                SessionApi.SUBSCRIBE,
                                new SubscribeApi.SubscribeRequest(
                                        clean, cleanEpoch, node, List.of(sub("lv/" + clean, 0))))
                        .status())
                .isEqualTo(200);
        double declaredBefore = metricValue(scrape(), "tributary_nodes_declared_dead_total");

        silence(node, inc);
        Instant declaredAround = Instant.now();
        detectUntilDead(node, inc);

        // Persistent session: offline, expiry set, subscription re-pointed offline in the feed, presence gone.
        var row = jdbc.sql("SELECT connected, node_id, expires_at FROM sessions WHERE client_id = :c")
                .param("c", persistent)
                .query()
                .singleRow();
        assertThat(row.get("connected")).isEqualTo(false);
        assertThat(row.get("node_id")).isNull();
        assertThat(toInstant(row.get("expires_at")))
                .isCloseTo(declaredAround.plusSeconds(600), within(15, ChronoUnit.SECONDS));
        assertThat(lastValue(TopicNames.SUBSCRIPTIONS_EXACT, "lv/" + persistent, persistent)
                        .nodeId())
                .isNull();
        PresenceReader.awaitGone(redis, persistent);
        // Expiry-0 session: removed, with a tombstone for its subscription.
        assertThat(jdbc.sql("SELECT count(*) FROM sessions WHERE client_id = :c")
                        .param("c", clean)
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(last(TopicNames.SUBSCRIPTIONS_EXACT, "lv/" + clean, clean).value())
                .isNull();

        // Wills without delay: published, with the record format of a transport node's publish.
        List<ConsumerRecord<byte[], byte[]>> wills = published(persistentTopic);
        assertThat(wills).hasSize(1);
        ConsumerRecord<byte[], byte[]> w = wills.get(0);
        assertThat(new String(w.value(), StandardCharsets.UTF_8)).isEqualTo("gone:" + persistentTopic);
        assertThat(RecordHeaders.readString(w.headers(), RecordHeaders.CLIENT_ID))
                .isEqualTo(persistent);
        assertThat(RecordHeaders.readString(w.headers(), RecordHeaders.NODE_ID)).isEqualTo(node);
        assertThat(RecordHeaders.readQos(w.headers())).isEqualTo(1);
        assertThat(RecordHeaders.readFlag(w.headers(), RecordHeaders.RETAIN)).isFalse();
        assertThat(RecordHeaders.readInt8(w.headers(), RecordHeaders.PROTOCOL_VERSION))
                .isEqualTo(5);
        assertThat(RecordHeaders.readString(w.headers(), RecordHeaders.CONTENT_TYPE))
                .isEqualTo("text/plain");
        assertThat(RecordHeaders.readString(w.headers(), RecordHeaders.RESPONSE_TOPIC))
                .isEqualTo("reply/" + persistentTopic);
        assertThat(RecordHeaders.readBytes(w.headers(), RecordHeaders.CORRELATION_DATA))
                .isEqualTo(utf8("corr"));
        assertThat(RecordHeaders.readInt(w.headers(), RecordHeaders.MESSAGE_EXPIRY))
                .isEqualTo(3600);
        assertThat(RecordHeaders.readInt8(w.headers(), RecordHeaders.PAYLOAD_FORMAT))
                .isEqualTo(1);
        assertThat(w.headers().headers(RecordHeaders.USER_PROPERTY_PREFIX + "k"))
                .extracting(h -> new String(h.value(), StandardCharsets.UTF_8))
                .containsExactly("v1", "v2");
        assertThat(published(cleanTopic)).hasSize(1);
        // The delayed will waits for its delay.
        assertThat(published("wills/" + delayed)).isEmpty();
        assertThat(toInstant(jdbc.sql("SELECT will_publish_at FROM wills WHERE client_id = :c")
                        .param("c", delayed)
                        .query()
                        .singleValue()))
                .isCloseTo(declaredAround.plusSeconds(30), within(15, ChronoUnit.SECONDS));

        // Nothing happens twice: more detector and publisher runs publish no will again.
        detector.check();
        publisher.publishDue();
        assertThat(published(persistentTopic)).hasSize(1);
        assertThat(published(cleanTopic)).hasSize(1);
        // A dead incarnation stays dead: its heartbeats are answered "declared dead".
        assertThat(heartbeat(node, inc)).isFalse();
        String scrape = scrape();
        // (Silent nodes of other tests may be declared by the same runs; one claim per incarnation is asserted by
        // concurrent_detectors_declare_an_incarnation_dead_exactly_once.)
        assertThat(metricValue(scrape, "tributary_nodes_declared_dead_total"))
                .isGreaterThanOrEqualTo(declaredBefore + 1);
        assertThat(metricValue(scrape, "tributary_wills_published_total")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void a_restarted_node_ends_the_sessions_of_its_old_incarnation_and_keeps_its_new_ones() throws Exception {
        String node = unique("ln-b");
        String oldInc = unique("i");
        String newInc = unique("i");
        assertThat(heartbeat(node, oldInc)).isTrue();
        String before = unique("lv-before");
        connect(before, node, oldInc, 600, null);
        // Restarted faster than the timeout: the new process connects a client before its first heartbeat.
        String after = unique("lv-after");
        connect(after, node, newInc, 600, null);
        assertThat(heartbeat(node, newInc)).isTrue();

        detectUntilDead(node, oldInc);

        assertThat(jdbc.sql("SELECT connected FROM sessions WHERE client_id = :c")
                        .param("c", before)
                        .query(Boolean.class)
                        .single())
                .isFalse();
        assertThat(jdbc.sql("SELECT connected FROM sessions WHERE client_id = :c")
                        .param("c", after)
                        .query(Boolean.class)
                        .single())
                .isTrue();
        assertThat(jdbc.sql("SELECT dead_at IS NULL FROM transport_nodes WHERE node_id = :n AND incarnation = :i")
                        .param("n", node)
                        .param("i", newInc)
                        .query(Boolean.class)
                        .single())
                .isTrue();
        assertThat(heartbeat(node, newInc)).isTrue();
    }

    @Test
    void concurrent_detectors_declare_an_incarnation_dead_exactly_once() throws Exception {
        String node = unique("ln-c");
        String inc = unique("i");
        heartbeat(node, inc);
        silence(node, inc);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Callable<Integer> claim = () -> (int) nodes.claimDead(java.time.Duration.ofSeconds(1)).stream()
                    .filter(d -> d.nodeId().equals(node))
                    .count();
            List<Future<Integer>> results = pool.invokeAll(List.of(claim, claim, claim, claim));
            int total = 0;
            for (Future<Integer> f : results) {
                total += f.get();
            }
            assertThat(total).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void delayed_will_is_published_after_min_of_delay_and_expiry_and_only_once() throws Exception {
        String node = unique("ln-d");
        String inc = unique("i");
        heartbeat(node, inc);
        String client = unique("wd");
        String topic = "wills/" + client;
        long epoch = connect(client, node, inc, 3, will(topic, 120));
        Instant closed = Instant.now();
        assertThat(post(
                                SessionApi.DISCONNECT,
                                new DisconnectApi.DisconnectRequest(
                                        client, epoch, node, 3, DisconnectApi.WillOutcome.SCHEDULE))
                        .status())
                .isEqualTo(200);
        // min(120 s delay, 3 s expiry)
        Instant due = toInstant(jdbc.sql("SELECT will_publish_at FROM wills WHERE client_id = :c")
                .param("c", client)
                .query()
                .singleValue());
        assertThat(due).isCloseTo(closed.plusSeconds(3), within(2, ChronoUnit.SECONDS));
        publisher.publishDue();
        assertThat(published(topic)).as("not before its time").isEmpty();

        while (Instant.now().isBefore(due)) {
            Thread.sleep(50);
        }
        publisher.publishDue();
        assertThat(published(topic)).hasSize(1);
        publisher.publishDue();
        assertThat(published(topic)).hasSize(1);
        assertThat(jdbc.sql("SELECT count(*) FROM wills WHERE client_id = :c")
                        .param("c", client)
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    void reconnect_within_the_delay_cancels_the_will_and_a_normal_disconnect_drops_it() throws Exception {
        String node = unique("ln-e");
        String inc = unique("i");
        heartbeat(node, inc);
        String client = unique("wc");
        String topic = "wills/" + client;
        long epoch = connect(client, node, inc, 600, will(topic, 2));
        post(
                SessionApi.DISCONNECT,
                new DisconnectApi.DisconnectRequest(client, epoch, node, 600, DisconnectApi.WillOutcome.SCHEDULE));
        double cancelledBefore = metricValue(scrape(), "tributary_wills_cancelled_total");
        // Clean start 0: the session goes on, so the pending will is cancelled.
        long second = connect(client, node, inc, 600, will(topic, 2), false);
        assertThat(metricValue(scrape(), "tributary_wills_cancelled_total")).isEqualTo(cancelledBefore + 1);
        // The new connection's will is stored, not due.
        assertThat(jdbc.sql("SELECT will_publish_at IS NULL FROM wills WHERE client_id = :c")
                        .param("c", client)
                        .query(Boolean.class)
                        .single())
                .isTrue();
        post(
                SessionApi.DISCONNECT,
                new DisconnectApi.DisconnectRequest(client, second, node, 600, DisconnectApi.WillOutcome.DISCARD));
        assertThat(jdbc.sql("SELECT count(*) FROM wills WHERE client_id = :c")
                        .param("c", client)
                        .query(Long.class)
                        .single())
                .isZero();
        Thread.sleep(2_200);
        publisher.publishDue();
        assertThat(published(topic)).isEmpty();
    }

    @Test
    void reconnect_with_clean_start_ends_the_old_session_and_publishes_its_pending_will_at_once() throws Exception {
        String node = unique("ln-f");
        String inc = unique("i");
        heartbeat(node, inc);
        String client = unique("wc");
        String topic = "wills/" + client;
        long epoch = connect(client, node, inc, 600, will(topic, 60));
        post(
                SessionApi.DISCONNECT,
                new DisconnectApi.DisconnectRequest(client, epoch, node, 600, DisconnectApi.WillOutcome.SCHEDULE));
        assertThat(published(topic)).as("delay of 60 s not over").isEmpty();
        // MQTT 5 3.1.3.2.2: published when the delay passes or the session ends, whichever comes first.
        connect(client, node, inc, 600, null, true);
        assertThat(published(topic)).as("the ended session's will, once").hasSize(1);
        publisher.publishDue();
        assertThat(published(topic)).hasSize(1);
    }
}
