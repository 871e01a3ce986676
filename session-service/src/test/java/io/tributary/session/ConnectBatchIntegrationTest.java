package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.DownlinkType;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.session.support.FeedReader;
import io.tributary.session.support.PresenceReader;
import io.tributary.session.support.TestEngines;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The batch calls transport nodes make in a storm: one transaction for many CONNECTs or disconnects, with the outcome
 * of every request as if it had come alone — repeats of a client applied in order, refusals and malformed requests not
 * holding up the others, stale disconnects ignored.
 */
@Order(2)
class ConnectBatchIntegrationTest extends ServiceTestBase {

    private static ConnectApi.ConnectRequest request(String clientId, String nodeId, boolean cleanStart, long expiry) {
        return new ConnectApi.ConnectRequest(clientId, nodeId, cleanStart, expiry, 5, 30, "127.0.0.1:1", "user");
    }

    private List<ConnectApi.ConnectOutcome> connectBatch(ConnectApi.ConnectRequest... requests) throws Exception {
        Response r = post(SessionApi.CONNECT_BATCH, new ConnectApi.ConnectBatch(List.of(requests)));
        assertThat(r.status()).as("connect batch: %s", r.body()).isEqualTo(200);
        return json.treeToValue(r.body(), ConnectApi.ConnectBatchResponse.class).outcomes();
    }

    @Test
    void test_each_connect_of_a_batch_gets_the_outcome_it_would_get_alone() throws Exception {
        // A persistent session with a subscription, offline: resumed by the batch.
        long before = connect("cb-back", "node-a", true, 3600).epoch();
        assertThat(post(
                                SessionApi.SUBSCRIBE,
                                new SubscribeApi.SubscribeRequest(
                                        "cb-back", before, "node-a", List.of(sub("cb/back", 1))))
                        .status())
                .isEqualTo(200);
        assertThat(post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("cb-back", before, "node-a", 3600))
                        .status())
                .isEqualTo(200);
        jdbc.sql("INSERT INTO block_list (client_id, reason, created_at) VALUES ('cb-banned', 'test', now())")
                .update();
        try {
            List<ConnectApi.ConnectOutcome> outcomes = connectBatch(
                    request("cb-new", "node-b", true, 0),
                    request("cb-twice", "node-b", true, 0),
                    request("cb-banned", "node-b", true, 0),
                    request("cb-bad", "bad node!", true, 0),
                    request("cb-back", "node-b", false, 3600),
                    request("cb-twice", "node-b", true, 0));

            assertThat(outcomes).hasSize(6);
            assertThat(outcomes.get(0).accepted().sessionPresent()).isFalse();
            assertThat(outcomes.get(2).refused().reason()).isEqualTo(ConnectApi.RefusalReason.BANNED);
            assertThat(outcomes.get(3).unavailable()).contains("nodeId");
            ConnectApi.ConnectResponse back = outcomes.get(4).accepted();
            assertThat(back.sessionPresent()).isTrue();
            assertThat(back.subscriptions())
                    .extracting(SubscribeApi.Subscription::filter)
                    .containsExactly("cb/back");
            assertThat(back.epoch()).isGreaterThan(before);
            assertThat(lastValue(TopicNames.SUBSCRIPTIONS_EXACT, "cb/back", "cb-back")
                            .nodeId())
                    .isEqualTo("node-b");

            // The second CONNECT of cb-twice takes over the first, as if it had come in the next batch.
            long first = outcomes.get(1).accepted().epoch();
            long second = outcomes.get(5).accepted().epoch();
            assertThat(second).isGreaterThan(first);
            List<ConsumerRecord<byte[], byte[]>> commands = FeedReader.withKey(
                    FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.downlink("node-b")), utf8("cb-twice"));
            assertThat(commands).hasSize(1);
            assertThat(DownlinkType.fromHeader(
                            RecordHeaders.readBytes(commands.get(0).headers(), RecordHeaders.DOWNLINK_TYPE)))
                    .isEqualTo(DownlinkType.TAKEOVER);
            assertThat(RecordHeaders.readLong(commands.get(0).headers(), RecordHeaders.EPOCH))
                    .isEqualTo(second);

            assertThat(jdbc.sql("SELECT client_id FROM sessions WHERE client_id LIKE 'cb-%' AND connected")
                            .query(String.class)
                            .list())
                    .containsExactlyInAnyOrder("cb-new", "cb-twice", "cb-back");
            assertThat(jdbc.sql("SELECT epoch FROM sessions WHERE client_id = 'cb-twice'")
                            .query(Long.class)
                            .single())
                    .isEqualTo(second);
            assertThat(PresenceReader.atEpoch(redis, "cb-twice", second)).containsKey("node");
        } finally {
            jdbc.sql("DELETE FROM block_list WHERE client_id = 'cb-banned'").update();
        }
    }

    @Test
    void test_a_disconnect_batch_ends_current_connections_and_ignores_stale_ones() throws Exception {
        long gone = connect("db-gone", "node-a", true, 0).epoch();
        long kept = connect("db-kept", "node-a", true, 3600).epoch();
        assertThat(post(
                                SessionApi.SUBSCRIBE,
                                new SubscribeApi.SubscribeRequest(
                                        "db-kept", kept, "node-a", List.of(sub("db/kept", 1))))
                        .status())
                .isEqualTo(200);
        long stale = connect("db-stale", "node-a", true, 0).epoch();
        long current = connect("db-stale", "node-b", true, 0).epoch();

        List<DisconnectApi.DisconnectRequest> requests = new ArrayList<>(List.of(
                new DisconnectApi.DisconnectRequest("db-gone", gone, "node-a", 0),
                new DisconnectApi.DisconnectRequest("db-kept", kept, "node-a", 3600),
                new DisconnectApi.DisconnectRequest("db-stale", stale, "node-a", 0),
                new DisconnectApi.DisconnectRequest("db-gone", gone, "node-a", 0)));
        assertThat(post(SessionApi.DISCONNECT_BATCH, new DisconnectApi.DisconnectBatch(requests))
                        .status())
                .isEqualTo(200);

        assertThat(jdbc.sql("SELECT count(*) FROM sessions WHERE client_id = 'db-gone'")
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(jdbc.sql("SELECT connected FROM sessions WHERE client_id = 'db-kept'")
                        .query(Boolean.class)
                        .single())
                .isFalse();
        assertThat(lastValue(TopicNames.SUBSCRIPTIONS_EXACT, "db/kept", "db-kept")
                        .nodeId())
                .isNull();
        assertThat(jdbc.sql("SELECT epoch FROM sessions WHERE client_id = 'db-stale' AND connected")
                        .query(Long.class)
                        .single())
                .isEqualTo(current);
        PresenceReader.awaitGone(redis, "db-gone");
        assertThat(PresenceReader.atEpoch(redis, "db-stale", current)).containsKey("node");
    }

    @Test
    void test_a_subscribe_batch_answers_each_request_and_applies_repeats_in_order() throws Exception {
        long a = connect("sb-a", "node-a", true, 0).epoch();
        long b = connect("sb-b", "node-a", true, 3600).epoch();
        long old = connect("sb-c", "node-a", true, 0).epoch();
        connect("sb-c", "node-b", true, 0);
        Response r = post(
                SessionApi.SUBSCRIBE_BATCH,
                new SubscribeApi.SubscribeBatch(List.of(
                        new SubscribeApi.SubscribeRequest(
                                "sb-a", a, "node-a", List.of(sub("sb/x", 1), sub("sb/+/y", 2))),
                        new SubscribeApi.SubscribeRequest(
                                "sb-b", b, "node-a", List.of(sub("sb/x", 0), sub("a/#/b", 1))),
                        new SubscribeApi.SubscribeRequest("sb-c", old, "node-a", List.of(sub("sb/x", 1))),
                        new SubscribeApi.SubscribeRequest("sb-a", a, "node-a", List.of(sub("sb/x", 2))))));
        assertThat(r.status()).as("subscribe batch: %s", r.body()).isEqualTo(200);
        List<SubscribeApi.SubscribeOutcome> outcomes = json.treeToValue(
                        r.body(), SubscribeApi.SubscribeBatchResponse.class)
                .outcomes();
        assertThat(outcomes.get(0).done().reasonCodes()).containsExactly(1, 2);
        assertThat(outcomes.get(1).done().reasonCodes()).containsExactly(0, 0x8F);
        assertThat(outcomes.get(2).stale()).contains("epoch " + old + " ");
        assertThat(outcomes.get(3).done().reasonCodes()).containsExactly(2);
        // The repeat replaced the first: the row and the latest feed record say QoS 2.
        assertThat(jdbc.sql("SELECT qos FROM subscriptions WHERE client_id = 'sb-a' AND filter = 'sb/x'")
                        .query(Integer.class)
                        .single())
                .isEqualTo(2);
        assertThat(lastValue(TopicNames.SUBSCRIPTIONS_EXACT, "sb/x", "sb-a").qos())
                .isEqualTo(2);
        assertThat(lastValue(TopicNames.SUBSCRIPTIONS_WILDCARD, "sb/+/y", "sb-a")
                        .nodeId())
                .isEqualTo("node-a");
        assertThat(lastValue(TopicNames.SUBSCRIPTIONS_EXACT, "sb/x", "sb-b").persistent())
                .isTrue();
        assertThat(jdbc.sql("SELECT count(*) FROM subscriptions WHERE client_id = 'sb-c'")
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    void test_an_unsubscribe_batch_answers_each_filter_in_order_and_removes_nothing_for_a_stale_epoch()
            throws Exception {
        long a = connect("ub-a", "node-a", true, 0).epoch();
        long b = connect("ub-b", "node-a", true, 3600).epoch();
        long d = connect("ub-d", "node-a", true, 0).epoch();
        long old = connect("ub-c", "node-a", false, 3600).epoch();
        for (SubscribeApi.SubscribeRequest s : List.of(
                new SubscribeApi.SubscribeRequest("ub-a", a, "node-a", List.of(sub("ub/x", 1), sub("ub/+/y", 1))),
                new SubscribeApi.SubscribeRequest("ub-b", b, "node-a", List.of(sub("ub/x", 2))),
                new SubscribeApi.SubscribeRequest("ub-c", old, "node-a", List.of(sub("ub/c", 1))))) {
            assertThat(post(SessionApi.SUBSCRIBE, s).status()).isEqualTo(200);
        }
        // Taken over with its session resumed: the old connection's epoch is stale, its subscription stays.
        long current = connect("ub-c", "node-b", false, 3600).epoch();

        List<SubscribeApi.UnsubscribeOutcome> outcomes = unsubscribeBatch(
                new SubscribeApi.UnsubscribeRequest("ub-a", a, List.of("ub/x", "ub/never", "ub/+/y")),
                new SubscribeApi.UnsubscribeRequest("ub-b", b, List.of("ub/x", "ub/x")),
                new SubscribeApi.UnsubscribeRequest("ub-c", old, List.of("ub/c")),
                new SubscribeApi.UnsubscribeRequest("ub-d", d, List.of("ub/x")),
                new SubscribeApi.UnsubscribeRequest("ub-a", 0, List.of("ub/x")),
                new SubscribeApi.UnsubscribeRequest("ub-a", a, List.of("ub/x")),
                new SubscribeApi.UnsubscribeRequest("ub-gone", 7, List.of("ub/x")));

        assertThat(outcomes).hasSize(7);
        assertThat(outcomes.get(0).done().reasonCodes()).containsExactly(0x00, 0x11, 0x00);
        // The same filter twice: removed by the first, gone for the second, as if sent one after the other.
        assertThat(outcomes.get(1).done().reasonCodes()).containsExactly(0x00, 0x11);
        assertThat(outcomes.get(2).stale()).contains("epoch " + old + " ");
        assertThat(outcomes.get(2).done()).isNull();
        assertThat(outcomes.get(3).done().reasonCodes()).containsExactly(0x11);
        assertThat(outcomes.get(4).unavailable()).contains("epoch");
        assertThat(outcomes.get(5).done().reasonCodes()).containsExactly(0x11);
        assertThat(outcomes.get(6).stale()).contains("no session");

        assertThat(jdbc.sql("SELECT client_id || ' ' || filter FROM subscriptions WHERE client_id LIKE 'ub-%'")
                        .query(String.class)
                        .list())
                .containsExactly("ub-c ub/c");
        ConsumerRecord<byte[], byte[]> tombstone = last(TopicNames.SUBSCRIPTIONS_EXACT, "ub/x", "ub-a");
        assertThat(tombstone.value()).isNull();
        assertThat(RecordHeaders.readLong(tombstone.headers(), RecordHeaders.EPOCH))
                .isEqualTo(a);
        assertThat(last(TopicNames.SUBSCRIPTIONS_WILDCARD, "ub/+/y", "ub-a").value())
                .isNull();
        ConsumerRecord<byte[], byte[]> ofB = last(TopicNames.SUBSCRIPTIONS_EXACT, "ub/x", "ub-b");
        assertThat(ofB.value()).isNull();
        assertThat(RecordHeaders.readLong(ofB.headers(), RecordHeaders.EPOCH)).isEqualTo(b);
        assertThat(FeedReader.withKey(
                        FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.SUBSCRIPTIONS_EXACT),
                        SubscriptionRecord.key("ub/x", "ub-b")))
                .as("one tombstone for the pair removed once")
                .filteredOn(r -> r.value() == null)
                .hasSize(1);
        SubscriptionRecord kept = lastValue(TopicNames.SUBSCRIPTIONS_EXACT, "ub/c", "ub-c");
        assertThat(kept.nodeId()).isEqualTo("node-b");
        assertThat(kept.epoch()).isEqualTo(current);
    }
}
