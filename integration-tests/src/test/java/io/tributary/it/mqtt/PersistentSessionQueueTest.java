package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.AdminRequests;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.MqttCallback;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Persistent sessions keep their QoS 1/2 messages while the client is away, in a session queue in Redis, and get them
 * on any node when they come back: in order, then live traffic; unacknowledged ones again with DUP = 1 and their
 * original packet id; QoS 2 exactly once; a full queue drops by its policy and counts it.
 */
@ExtendWith(LogsOnFailure.class)
class PersistentSessionQueueTest {

    private static TributaryCluster cluster;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void mqtt311_messages_published_while_offline_arrive_in_order_on_the_other_node_then_live_ones() throws Exception {
        String clientId = id("q311");
        String topic = "it/queue/" + id("t");
        int offline = 60;
        BlockingQueue<String> received = new LinkedBlockingQueue<>();

        MqttClient subscriber = paho311(cluster.mqttPort(0), clientId, received);
        subscriber.subscribe(topic + "/#", 1);
        subscriber.disconnect();
        subscriber.close();

        try (Pub pub = Pub.on(cluster.mqttPort(1))) {
            Mqtt5BlockingClient publisher = pub.client();
            for (int i = 0; i < offline; i++) {
                publisher
                        .publishWith()
                        .topic(topic + "/m")
                        .payload(("m" + i).getBytes(StandardCharsets.UTF_8))
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();
            }
            // Back on the other node: the queue first, in order...
            MqttClient back = paho311(cluster.mqttPort(1), clientId, received);
            List<String> got = take(received, offline, 20);
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < offline; i++) {
                expected.add("m" + i);
            }
            assertThat(got).as("offline messages, in publish order, each once").containsExactlyElementsOf(expected);
            // ...then live traffic.
            publisher
                    .publishWith()
                    .topic(topic + "/m")
                    .payload("live".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            assertThat(received.poll(10, TimeUnit.SECONDS)).isEqualTo("live");
            assertThat(received.poll(1, TimeUnit.SECONDS)).as("nothing twice").isNull();
            back.disconnect();
            back.close();
        }
        assertThat(queueStats(clientId).queued())
                .as("acknowledged messages left the queue")
                .isZero();
    }

    @Test
    void mqtt5_qos2_messages_queued_while_offline_arrive_exactly_once() throws Exception {
        String clientId = id("q5");
        String topic = "it/queue/" + id("t");
        int count = 30;
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(1), clientId);
        subscriber.connectWith().cleanStart(true).sessionExpiryInterval(600).send();
        subscriber.subscribeWith().topicFilter(topic).qos(MqttQos.EXACTLY_ONCE).send();
        subscriber.disconnect();

        try (Pub pub = Pub.on(cluster.mqttPort(0))) {
            Mqtt5BlockingClient publisher = pub.client();
            for (int i = 0; i < count; i++) {
                publisher
                        .publishWith()
                        .topic(topic)
                        .payload(("q" + i).getBytes(StandardCharsets.UTF_8))
                        .qos(MqttQos.EXACTLY_ONCE)
                        .send();
            }
        }
        Mqtt5BlockingClient back = hive5(cluster.mqttPort(0), clientId);
        try (Mqtt5BlockingClient.Mqtt5Publishes in = back.publishes(MqttGlobalPublishFilter.ALL)) {
            assertThat(back.connectWith()
                            .cleanStart(false)
                            .sessionExpiryInterval(600)
                            .send()
                            .isSessionPresent())
                    .isTrue();
            List<String> got = new ArrayList<>();
            Optional<Mqtt5Publish> next;
            while ((next = in.receive(3, TimeUnit.SECONDS)).isPresent()) {
                assertThat(next.get().getQos()).isEqualTo(MqttQos.EXACTLY_ONCE);
                got.add(new String(next.get().getPayloadAsBytes(), StandardCharsets.UTF_8));
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                expected.add("q" + i);
            }
            assertThat(got).containsExactlyElementsOf(expected);
        } finally {
            back.disconnect();
        }
    }

    @Test
    void unacknowledged_messages_come_again_after_reconnect_with_dup_and_their_packet_id() throws Exception {
        String clientId = id("qdup");
        String topic = "it/queue/" + id("t");
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
            raw.send(RawMqtt.connect311(clientId, 60, false));
            assertThat(raw.readPacket(10_000)[0]).isEqualTo((byte) 0x20);
            raw.send(RawMqtt.subscribe311(1, topic, 1));
            assertThat(raw.readPacket(10_000)[0]).isEqualTo((byte) 0x90);
        }
        try (Pub pub = Pub.on(cluster.mqttPort(1))) {
            Mqtt5BlockingClient publisher = pub.client();
            for (int i = 0; i < 3; i++) {
                publisher
                        .publishWith()
                        .topic(topic)
                        .payload(("d" + i).getBytes(StandardCharsets.UTF_8))
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();
            }
        }
        List<Integer> firstIds = new ArrayList<>();
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(1))) {
            raw.send(RawMqtt.connect311(clientId, 60, false));
            assertThat(raw.readPacket(10_000)[0]).isEqualTo((byte) 0x20);
            for (int i = 0; i < 3; i++) {
                byte[] publish = raw.readPacket(10_000);
                assertThat(publish[0] & 0xF0).isEqualTo(0x30);
                assertThat(publish[0] & 0x08).as("first delivery: DUP = 0").isZero();
                assertThat(new String(RawMqtt.publishPayload(publish), StandardCharsets.UTF_8))
                        .isEqualTo("d" + i);
                firstIds.add(RawMqtt.publishPacketId(publish));
            }
            // Connection lost without a single PUBACK.
        }
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
            raw.send(RawMqtt.connect311(clientId, 60, false));
            assertThat(raw.readPacket(10_000)[0]).isEqualTo((byte) 0x20);
            for (int i = 0; i < 3; i++) {
                byte[] publish = raw.readPacket(10_000);
                assertThat(publish[0] & 0x08).as("re-delivery: DUP = 1").isEqualTo(0x08);
                assertThat(new String(RawMqtt.publishPayload(publish), StandardCharsets.UTF_8))
                        .isEqualTo("d" + i);
                assertThat(RawMqtt.publishPacketId(publish))
                        .as("original packet id")
                        .isEqualTo(firstIds.get(i));
                raw.send(RawMqtt.puback(firstIds.get(i)));
            }
            assertThat(raw.readPacket(1_000)).as("nothing more").isNull();
        } catch (java.net.SocketTimeoutException expected) {
            // nothing more arrived within a second
        }
        // Acknowledged now: a further reconnect gets nothing.
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(1))) {
            raw.send(RawMqtt.connect311(clientId, 60, false));
            assertThat(raw.readPacket(10_000)[0]).isEqualTo((byte) 0x20);
            assertThat(raw.readPacket(1_500)).isNull();
        } catch (java.net.SocketTimeoutException expected) {
            // nothing arrived
        }
        assertThat(queueStats(clientId).queued()).isZero();
    }

    @Test
    void a_full_queue_drops_the_oldest_and_counts_it() throws Exception {
        String clientId = id("qfull");
        String topic = "it/queue/" + id("t");
        int limit = TributaryCluster.SESSION_QUEUE_LIMIT;
        int published = limit + 25;
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        MqttClient subscriber = paho311(cluster.mqttPort(0), clientId, received);
        subscriber.subscribe(topic, 1);
        subscriber.disconnect();
        subscriber.close();
        try (Pub pub = Pub.on(cluster.mqttPort(1))) {
            // Asynchronously, many in flight: thousands of messages in a few seconds, still in publish order.
            Mqtt5AsyncClient publisher = pub.client().toAsync();
            List<CompletableFuture<?>> acks = new ArrayList<>(published);
            for (int i = 0; i < published; i++) {
                acks.add(publisher
                        .publishWith()
                        .topic(topic)
                        .payload(("f" + i).getBytes(StandardCharsets.UTF_8))
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send());
            }
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        }
        // Acknowledged means stored in Kafka; routing appends on its own time: wait until it appended them all.
        QueueStats stats = awaitAppended(clientId, published);
        assertThat(stats.lastSeq()).as("every message was appended once").isEqualTo(published);
        assertThat(stats.queued()).isEqualTo(limit);
        assertThat(stats.dropped())
                .as("dropped by the limit, shown by the REST API")
                .isEqualTo(25);

        MqttClient back = paho311(cluster.mqttPort(1), clientId, received);
        List<String> got = take(received, limit, 60);
        List<String> expected = new ArrayList<>();
        for (int i = published - limit; i < published; i++) {
            expected.add("f" + i);
        }
        // The oldest 25 made room; the rest arrives complete and in order.
        assertThat(got).containsExactlyElementsOf(expected);
        back.disconnect();
        back.close();
    }

    @Test
    void session_expiry_is_enforced_to_the_second_and_the_queue_goes_with_the_session() throws Exception {
        String clientId = id("qexp");
        String topic = "it/queue/" + id("t");
        long expirySeconds = 3;
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), clientId);
        subscriber
                .connectWith()
                .cleanStart(true)
                .sessionExpiryInterval(expirySeconds)
                .send();
        subscriber.subscribeWith().topicFilter(topic).qos(MqttQos.AT_LEAST_ONCE).send();
        subscriber.disconnect();
        try (Pub pub = Pub.on(cluster.mqttPort(1))) {
            pub.client()
                    .publishWith()
                    .topic(topic)
                    .payload("kept".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            // Back within the expiry: the session and its queued message are there.
            Mqtt5BlockingClient back = hive5(cluster.mqttPort(1), clientId);
            try (Mqtt5BlockingClient.Mqtt5Publishes in = back.publishes(MqttGlobalPublishFilter.ALL)) {
                assertThat(back.connectWith()
                                .cleanStart(false)
                                .sessionExpiryInterval(expirySeconds)
                                .send()
                                .isSessionPresent())
                        .isTrue();
                assertThat(in.receive(10, TimeUnit.SECONDS))
                        .get()
                        .satisfies(p -> assertThat(new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8))
                                .isEqualTo("kept"));
            }
            back.disconnect();
            long disconnectedAt = System.nanoTime();
            pub.client()
                    .publishWith()
                    .topic(topic)
                    .payload("expires".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            assertThat(awaitQueuedCount(clientId, 1)).as("queued while offline").isEqualTo(1);

            // The session is removed once its expiry has passed, not before, and within the sweep interval after.
            long goneAfterMs = awaitSessionGone(clientId, 15);
            long sinceDisconnectMs = TimeUnit.NANOSECONDS.toMillis(goneAfterMs - disconnectedAt);
            System.out.printf(
                    "[expiry] session with expiry %d s removed %d ms after its connection ended%n",
                    expirySeconds, sinceDisconnectMs);
            assertThat(sinceDisconnectMs).isBetween(expirySeconds * 1000 - 200, expirySeconds * 1000 + 3_000);
        }
        // A new session of the same client id starts empty: the expired session's queue went with it.
        Mqtt5BlockingClient fresh = hive5(cluster.mqttPort(0), clientId);
        try (Mqtt5BlockingClient.Mqtt5Publishes in = fresh.publishes(MqttGlobalPublishFilter.ALL)) {
            assertThat(fresh.connectWith()
                            .cleanStart(false)
                            .sessionExpiryInterval(60)
                            .send()
                            .isSessionPresent())
                    .isFalse();
            assertThat(in.receive(2, TimeUnit.SECONDS))
                    .as("nothing of the expired session")
                    .isEmpty();
        } finally {
            fresh.disconnect();
        }
    }

    @Test
    void a_persistent_subscriber_that_stops_reading_leaves_its_backlog_in_the_queue_not_in_the_node() throws Exception {
        String clientId = id("qslow");
        String topic = "it/queue/" + id("t");
        int published = 3000;
        byte[] payload = new byte[512];
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
            raw.send(RawMqtt.connect311(clientId, 600, false));
            assertThat(raw.readPacket(10_000)[0]).isEqualTo((byte) 0x20);
            raw.send(RawMqtt.subscribe311(1, topic, 1));
            assertThat(raw.readPacket(10_000)[0]).isEqualTo((byte) 0x90);
            // From here on the subscriber reads nothing and acknowledges nothing.
            try (Pub pub = Pub.on(cluster.mqttPort(1))) {
                Mqtt5AsyncClient publisher = pub.client().toAsync();
                List<CompletableFuture<?>> acks = new ArrayList<>(published);
                for (int i = 0; i < published; i++) {
                    byte[] body = payload.clone();
                    byte[] number = Integer.toString(i).getBytes(StandardCharsets.UTF_8);
                    System.arraycopy(number, 0, body, 0, number.length);
                    acks.add(publisher
                            .publishWith()
                            .topic(topic)
                            .payload(body)
                            .qos(MqttQos.AT_LEAST_ONCE)
                            .send());
                }
                CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            }
            QueueStats stalled = awaitAppended(clientId, published);
            // The node took at most its in-flight window (MQTT_MAX_INFLIGHT, 1000) off the queue; the rest waits in
            // Redis, none of it dropped.
            assertThat(stalled.lastSeq()).isEqualTo(published);
            assertThat(stalled.queued()).as("backlog kept in the session queue").isEqualTo(published);
            assertThat(stalled.dropped()).isZero();
            long held = transportGauge(0, "tributary_outbound_held_bytes");
            System.out.printf(
                    "[slow-persistent] %d messages of %d bytes queued; node 0 holds %d bytes for its "
                            + "subscribers%n",
                    published, payload.length, held);
            assertThat(held)
                    .as("bytes the node holds for subscribers: at most the in-flight window")
                    .isLessThanOrEqualTo(1000L * (payload.length + 100));
        }
        // It comes back and reads: everything, in order, once.
        List<Integer> got = new ArrayList<>();
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(1))) {
            raw.send(RawMqtt.connect311(clientId, 600, false));
            assertThat(raw.readPacket(10_000)[0]).isEqualTo((byte) 0x20);
            while (got.size() < published) {
                byte[] packet = raw.readPacket(20_000);
                assertThat(packet)
                        .as("message " + got.size() + " of " + published)
                        .isNotNull();
                if ((packet[0] & 0xF0) != 0x30) {
                    continue;
                }
                // The number, then zero bytes, which trim() removes.
                got.add(Integer.parseInt(new String(RawMqtt.publishPayload(packet), StandardCharsets.UTF_8).trim()));
                raw.send(RawMqtt.puback(RawMqtt.publishPacketId(packet)));
            }
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < published; i++) {
            expected.add(i);
        }
        assertThat(got).containsExactlyElementsOf(expected);
    }

    private long transportGauge(int node, String metric) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(cluster.transportManagementUrl(node) + "/actuator/prometheus"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        double total = 0;
        for (String line : response.body().split("\n")) {
            if (line.startsWith(metric + " ") || line.startsWith(metric + "{")) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return (long) total;
    }

    private long awaitQueuedCount(String clientId, long expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long queued;
        do {
            queued = queueStats(clientId).queued();
            if (queued >= expected) {
                return queued;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        return queued;
    }

    /** Polls the REST API until the session is gone; returns System.nanoTime() of the first 404. */
    private long awaitSessionGone(String clientId, int timeoutSeconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = http.send(
                    AdminRequests.to(cluster.sessionApiUrl(), "/api/v1/sessions/" + clientId)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 404) {
                return System.nanoTime();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("session of " + clientId + " still there after " + timeoutSeconds + " s");
    }

    private record QueueStats(long queued, long dropped, long lastSeq) {}

    private QueueStats awaitAppended(String clientId, long appended) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        QueueStats stats;
        do {
            stats = queueStats(clientId);
            if (stats.lastSeq() >= appended) {
                return stats;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        return stats;
    }

    private QueueStats queueStats(String clientId) throws Exception {
        HttpResponse<String> response = http.send(
                AdminRequests.to(cluster.sessionApiUrl(), "/api/v1/sessions/" + clientId)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return new QueueStats(
                number(response.body(), "queued"),
                number(response.body(), "dropped"),
                number(response.body(), "lastSeq"));
    }

    private static long number(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\"\\s*:\\s*(\\d+)").matcher(json);
        assertThat(m.find()).as(field + " in " + json).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** A connected HiveMQ MQTT 5 publisher, disconnected when closed. */
    private record Pub(Mqtt5BlockingClient client) implements AutoCloseable {

        static Pub on(int port) {
            Mqtt5BlockingClient client = hive5(port, id("pub"));
            client.connect();
            return new Pub(client);
        }

        @Override
        public void close() {
            client.disconnect();
        }
    }

    /** A Paho MQTT 3.1.1 client with clean session 0 whose messages' payloads land in {@code received}. */
    private static MqttClient paho311(int port, String clientId, BlockingQueue<String> received) throws Exception {
        MqttClient client = new MqttClient("tcp://127.0.0.1:" + port, clientId, new MemoryPersistence());
        client.setCallback(new MqttCallback() {
            @Override
            public void connectionLost(Throwable cause) {}

            @Override
            public void messageArrived(String topic, MqttMessage message) {
                received.add(new String(message.getPayload(), StandardCharsets.UTF_8));
            }

            @Override
            public void deliveryComplete(IMqttDeliveryToken token) {}
        });
        MqttConnectOptions options = Clients.paho3Options(MqttConnectOptions.MQTT_VERSION_3_1_1);
        options.setCleanSession(false);
        client.connect(options);
        return client;
    }

    private static List<String> take(BlockingQueue<String> queue, int count, int timeoutSeconds)
            throws InterruptedException {
        List<String> out = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (out.size() < count && System.nanoTime() < deadline) {
            String next = queue.poll(200, TimeUnit.MILLISECONDS);
            if (next != null) {
                out.add(next);
            }
        }
        return out;
    }
}
