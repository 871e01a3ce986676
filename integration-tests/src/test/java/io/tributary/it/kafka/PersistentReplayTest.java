package io.tributary.it.kafka;

import static io.tributary.it.kafka.ReplayTest.publish;
import static io.tributary.it.kafka.ReplayTest.receive;
import static io.tributary.it.kafka.ReplayTest.replay;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAck;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Replay from Kafka for persistent sessions (issue 16): a session with Session Expiry Interval above 0 gets its QoS 1/2
 * messages from its Redis session queue, and a replay joins its history to that queue. Messages published before and
 * while the SUBSCRIBE happens, and messages queued while the client was away, all arrive once, in publish order per
 * topic. Publishers on one transport node, the subscriber on the other (and on both, across a reconnect).
 */
@ExtendWith(LogsOnFailure.class)
class PersistentReplayTest {

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    /** Publishers keep publishing to their topics, about 200 a second each, until stopped. */
    private record Running(AtomicBoolean stop, List<CompletableFuture<Void>> tasks) {
        void end() throws Exception {
            stop.set(true);
            CompletableFuture.allOf(tasks.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        }
    }

    private static Running keepPublishing(
            List<Mqtt5BlockingClient> publishers, List<String> topics, Map<String, Integer> published) {
        AtomicBoolean stop = new AtomicBoolean();
        List<CompletableFuture<Void>> tasks = new ArrayList<>();
        for (int t = 0; t < topics.size(); t++) {
            Mqtt5BlockingClient p = publishers.get(t);
            String topic = topics.get(t);
            tasks.add(CompletableFuture.runAsync(() -> {
                while (!stop.get()) {
                    publish(p, topic, published);
                    LockSupport.parkNanos(5_000_000);
                }
            }));
        }
        return new Running(stop, tasks);
    }

    private static List<Integer> upTo(int count) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(i);
        }
        return all;
    }

    @Test
    void a_persistent_session_gets_history_then_live_traffic_with_nothing_missing_and_nothing_twice() throws Exception {
        String root = id("preplay-seam");
        List<String> topics = List.of(root + "/a", root + "/b", root + "/c");
        Instant before = Instant.now().minusSeconds(1);
        Map<String, Integer> published = new ConcurrentHashMap<>();
        List<Mqtt5BlockingClient> publishers = new ArrayList<>();
        for (String topic : topics) {
            Mqtt5BlockingClient p = Clients.hive5(cluster.mqttPort(0), id("prp-pub"));
            p.connect();
            publishers.add(p);
            published.put(topic, 0);
        }
        for (int i = 0; i < 20; i++) {
            for (int t = 0; t < topics.size(); t++) {
                publish(publishers.get(t), topics.get(t), published);
            }
        }
        Running running = keepPublishing(publishers, topics, published);
        Mqtt5BlockingClient subscriber = Clients.hive5(cluster.mqttPort(1), id("prp-sub"));
        subscriber.connectWith().cleanStart(true).sessionExpiryInterval(300).send();
        try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            Thread.sleep(300);
            Mqtt5SubAck ack = subscriber.subscribe(replay(root + "/+", "replay-from", before.toString()));
            assertThat(ack.getReasonCodes())
                    .as("a persistent session is granted its replay")
                    .containsExactly(Mqtt5SubAckReasonCode.GRANTED_QOS_1);
            Thread.sleep(1500);
            running.end();
            int total = published.values().stream().mapToInt(Integer::intValue).sum();
            assertThat(total).as("publishes acknowledged").isGreaterThan(3 * 25);

            Map<String, List<Integer>> got = receive(received, total, 30);
            assertThat(received.receive(2, TimeUnit.SECONDS)).as("nothing more").isEmpty();
            for (String topic : topics) {
                assertThat(got.get(topic))
                        .as("%s: every message once, in order", topic)
                        .containsExactlyElementsOf(upTo(published.get(topic)));
            }
        } finally {
            subscriber.disconnectWith().sessionExpiryInterval(0).send();
            publishers.forEach(Mqtt5BlockingClient::disconnect);
        }
    }

    /**
     * The session subscribed to {@code x} goes away while {@code x} and {@code y} are published; it comes back on the
     * other node (clean start false) and asks for the last 5 of {@code y} while both keep being published: what was
     * queued for it while away, the history of {@code y} and the live traffic of both arrive once each, in order.
     */
    @Test
    void across_a_reconnect_the_offline_messages_the_history_and_live_traffic_arrive_once_in_order() throws Exception {
        String root = id("preplay-back");
        String x = root + "/x";
        String y = root + "/y";
        String clientId = id("prb-sub");
        Map<String, Integer> published = new ConcurrentHashMap<>();
        Mqtt5BlockingClient px = Clients.hive5(cluster.mqttPort(0), id("prb-px"));
        px.connect();
        Mqtt5BlockingClient py = Clients.hive5(cluster.mqttPort(0), id("prb-py"));
        py.connect();
        Mqtt5BlockingClient first = Clients.hive5(cluster.mqttPort(1), clientId);
        first.connectWith().cleanStart(true).sessionExpiryInterval(300).send();
        first.subscribeWith().topicFilter(x).qos(MqttQos.AT_LEAST_ONCE).send();
        first.disconnect();

        for (int i = 0; i < 10; i++) {
            publish(px, x, published);
            publish(py, y, published);
        }
        Running running = keepPublishing(List.of(px, py), List.of(x, y), published);
        Mqtt5BlockingClient back = Clients.hive5(cluster.mqttPort(0), clientId);
        try (Mqtt5BlockingClient.Mqtt5Publishes received = back.publishes(MqttGlobalPublishFilter.ALL)) {
            back.connectWith().cleanStart(false).sessionExpiryInterval(300).send();
            int yBefore = published.get(y);
            Mqtt5SubAck ack = back.subscribe(replay(y, "replay-last", "5"));
            assertThat(ack.getReasonCodes()).containsExactly(Mqtt5SubAckReasonCode.GRANTED_QOS_1);
            Thread.sleep(1500);
            running.end();
            int xTotal = published.get(x);
            int yTotal = published.get(y);
            // y: at least the last 5 before the SUBSCRIBE, then everything after it; the seam's exact place is the
            // end offset the node took, so the first one is known only from what arrives.
            Map<String, List<Integer>> got = new java.util.LinkedHashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline
                    && (got.getOrDefault(x, List.of()).size() < xTotal
                            || got.getOrDefault(y, List.of()).isEmpty()
                            || got.get(y).get(got.get(y).size() - 1) != yTotal - 1)) {
                Map<String, List<Integer>> one = receive(received, 1, 30);
                one.forEach(
                        (t, v) -> got.computeIfAbsent(t, k -> new ArrayList<>()).addAll(v));
            }
            assertThat(received.receive(2, TimeUnit.SECONDS)).as("nothing more").isEmpty();
            assertThat(got.get(x))
                    .as("queued while away, then live: every message once, in order")
                    .containsExactlyElementsOf(upTo(xTotal));
            List<Integer> ys = got.get(y);
            int firstY = ys.get(0);
            assertThat(firstY)
                    .as("the last 5 of y before the SUBSCRIBE took effect (y before %d, got %s)", yBefore, got)
                    .isGreaterThanOrEqualTo(yBefore - 5)
                    .isLessThanOrEqualTo(yTotal - 5);
            List<Integer> expected = new ArrayList<>();
            for (int i = firstY; i < yTotal; i++) {
                expected.add(i);
            }
            assertThat(ys).as("y: history then live, once each, in order").containsExactlyElementsOf(expected);
        } finally {
            back.disconnectWith().sessionExpiryInterval(0).send();
            px.disconnect();
            py.disconnect();
        }
    }
}
