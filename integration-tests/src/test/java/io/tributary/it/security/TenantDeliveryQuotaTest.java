package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A tenant's quota on bytes out holds for the cluster: QoS 0 subscribers of the tenant on both nodes of the shared
 * cluster together receive at most about {@code maxDeliveryBytesRate} payload bytes per second (plus the lease slack
 * of docs/guarantees.md), the rest dropped and counted on each node; QoS 1 subscribers of the tenant (a clean
 * session on one node, a persistent session served from its Redis queue on the other) receive every message, in
 * order, later than unthrottled; another tenant's subscribers receive everything at once.
 */
@ExtendWith(LogsOnFailure.class)
class TenantDeliveryQuotaTest {

    private static final String PASSWORD = "pw-outq";
    private static final int PAYLOAD = 100;
    /** Payload bytes per second delivered to the whole tenant: ten messages. */
    private static final int QUOTA = 1000;
    /** A batch is a tenth of the quota; each node may be one batch ahead on credit, twice per window at worst. */
    private static final int SLACK_PER_WINDOW = 2 * 2 * QUOTA / 10;

    private static TributaryCluster cluster;
    private static AuthApi api;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
        api = new AuthApi(cluster.sessionApiUrl());
    }

    private static Mqtt5BlockingClient client(String user, int node, String clientId, boolean persistent) {
        Mqtt5BlockingClient client = Clients.hive5(cluster.mqttPort(node), clientId);
        client.connectWith()
                .cleanStart(true)
                .sessionExpiryInterval(persistent ? 600 : 0)
                .simpleAuth()
                .username(user)
                .password(PASSWORD.getBytes(StandardCharsets.UTF_8))
                .applySimpleAuth()
                .send();
        return client;
    }

    /** What one subscriber received: the index in each payload, and when the last one came. */
    private record Received(List<Integer> indexes, AtomicLong lastAt) {
        static Received subscribe(Mqtt5BlockingClient client, String filter, MqttQos qos) {
            Received r = new Received(new CopyOnWriteArrayList<>(), new AtomicLong());
            client.toAsync()
                    .subscribeWith()
                    .topicFilter(filter)
                    .qos(qos)
                    .callback(p -> {
                        r.indexes().add(ByteBuffer.wrap(p.getPayloadAsBytes()).getInt());
                        r.lastAt().set(System.nanoTime());
                    })
                    .send()
                    .join();
            return r;
        }

        int size() {
            return indexes.size();
        }
    }

    private static void publish(Mqtt5BlockingClient publisher, String topic, MqttQos qos, int index) {
        publisher
                .publishWith()
                .topic(topic)
                .qos(qos)
                .payload(ByteBuffer.allocate(PAYLOAD).putInt(index).array())
                .send();
    }

    private static void await(String what, long seconds, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /** Waits until none of {@code received} got anything for {@code quietMillis}. */
    private static void awaitQuiet(long quietMillis, Received... received) throws InterruptedException {
        long quiet = TimeUnit.MILLISECONDS.toNanos(quietMillis);
        await("deliveries stop", 30, () -> {
            long now = System.nanoTime();
            for (Received r : received) {
                if (now - r.lastAt().get() < quiet) {
                    return false;
                }
            }
            return true;
        });
    }

    @Test
    void the_tenants_subscribers_on_both_nodes_share_its_bytes_out_qos0_dropped_qos1_delayed() throws Exception {
        String limited = Clients.id("oq-a");
        String other = Clients.id("oq-b");
        api.createTenantWithQuotas(limited, Map.of("maxDeliveryBytesRate", QUOTA));
        api.createTenantWithQuotas(other, Map.of());
        String userA = Clients.id("uoa");
        String userB = Clients.id("uob");
        api.create(AuthApi.credential(userA, PASSWORD, limited, List.of("#")));
        api.create(AuthApi.credential(userB, PASSWORD, other, List.of("#")));

        Mqtt5BlockingClient sub0 = client(userA, 0, Clients.id("oq-s0"), false);
        Mqtt5BlockingClient sub1 = client(userA, 1, Clients.id("oq-s1"), false);
        Mqtt5BlockingClient otherSub = client(userB, 1, Clients.id("oq-so"), false);
        Mqtt5BlockingClient publisher = client(userA, 0, Clients.id("oq-p"), false);
        Mqtt5BlockingClient otherPublisher = client(userB, 0, Clients.id("oq-po"), false);
        Received at0 = Received.subscribe(sub0, "d/q0", MqttQos.AT_MOST_ONCE);
        Received at1 = Received.subscribe(sub1, "d/q0", MqttQos.AT_MOST_ONCE);
        Received otherAt1 = Received.subscribe(otherSub, "d/q0", MqttQos.AT_MOST_ONCE);

        // Both nodes know the quota (they poll session-service) once each has dropped a delivery for it.
        int warmup = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (refusals(0, limited) == 0 || refusals(1, limited) == 0) {
            assertThat(System.nanoTime()).as("both nodes drop for the quota").isLessThan(deadline);
            for (int i = 0; i < 30; i++) {
                publish(publisher, "d/q0", MqttQos.AT_MOST_ONCE, warmup++);
            }
            Thread.sleep(200);
        }
        awaitQuiet(1500, at0, at1);
        at0.indexes().clear();
        at1.indexes().clear();
        double droppedBefore = dropped(0) + dropped(1);

        // QoS 0: 300 messages to each subscriber over about three seconds, 60 times the quota offered.
        int offered = 300;
        long start = System.nanoTime();
        for (int i = 0; i < offered; i++) {
            publish(publisher, "d/q0", MqttQos.AT_MOST_ONCE, i);
            publish(otherPublisher, "d/q0", MqttQos.AT_MOST_ONCE, i);
            Thread.sleep(10);
        }
        await("the other tenant gets all of its QoS 0", 30, () -> otherAt1.size() == offered);
        awaitQuiet(1500, at0, at1);
        long last = Math.max(at0.lastAt().get(), at1.lastAt().get());
        double seconds = (Math.max(last, start) - start) / 1e9;
        long windows = (long) Math.ceil(seconds) + 1;
        long delivered = (long) (at0.size() + at1.size()) * PAYLOAD;
        assertThat(delivered)
                .as(
                        "payload bytes to both nodes' subscribers in %.1f s (%d + %d messages)",
                        seconds, at0.size(), at1.size())
                .isBetween((long) QUOTA, windows * (QUOTA + SLACK_PER_WINDOW));
        assertThat(at0.size()).as("node 0's subscriber gets its share").isPositive();
        assertThat(at1.size()).as("node 1's subscriber gets its share").isPositive();
        assertThat(dropped(0) + dropped(1) - droppedBefore)
                .as("drops counted on the nodes")
                .isEqualTo(2.0 * offered - at0.size() - at1.size());
        assertThat(refusals(0, other) + refusals(1, other)).as("another tenant").isZero();

        // QoS 1: a clean session on node 0, a persistent one (served from its Redis queue) on node 1.
        Mqtt5BlockingClient q1Clean = client(userA, 0, Clients.id("oq-c"), false);
        Mqtt5BlockingClient q1Persistent = client(userA, 1, Clients.id("oq-k"), true);
        Mqtt5BlockingClient q1Other = client(userB, 1, Clients.id("oq-o"), false);
        List<Integer> clean = new ArrayList<>();
        List<Integer> persistent = new ArrayList<>();
        List<Integer> unthrottled = new ArrayList<>();
        int count = 20; // 2 x 2000 bytes: four seconds of the quota
        try (Mqtt5BlockingClient.Mqtt5Publishes cleanIn = q1Clean.publishes(MqttGlobalPublishFilter.ALL);
                Mqtt5BlockingClient.Mqtt5Publishes persistentIn = q1Persistent.publishes(MqttGlobalPublishFilter.ALL);
                Mqtt5BlockingClient.Mqtt5Publishes otherIn = q1Other.publishes(MqttGlobalPublishFilter.ALL)) {
            q1Clean.subscribeWith()
                    .topicFilter("d/q1")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            q1Persistent
                    .subscribeWith()
                    .topicFilter("d/q1")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            q1Other.subscribeWith()
                    .topicFilter("d/q1")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            long q1Start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                publish(publisher, "d/q1", MqttQos.AT_LEAST_ONCE, i);
                publish(otherPublisher, "d/q1", MqttQos.AT_LEAST_ONCE, i);
            }
            long otherTook = receive(otherIn, unthrottled, count, q1Start);
            long cleanTook = receive(cleanIn, clean, count, q1Start);
            long persistentTook = receive(persistentIn, persistent, count, q1Start);
            List<Integer> inOrder = IntStream.range(0, count).boxed().toList();
            assertThat(clean)
                    .as("every QoS 1 message, in order (clean session)")
                    .isEqualTo(inOrder);
            assertThat(persistent)
                    .as("every QoS 1 message, in order (persistent session)")
                    .isEqualTo(inOrder);
            assertThat(unthrottled).isEqualTo(inOrder);
            long slowest = Math.max(cleanTook, persistentTook);
            // The least time the quota allows: with up to QUOTA + SLACK_PER_WINDOW bytes a window, 4000 bytes that
            // start
            // at the end of one window take its rest, all of the next and part of a third: at least one window (1 s).
            // (1.5 s was asserted before and failed once in CI at 1.34 s, which the quota allows.)
            long fewestWindows = (long) Math.ceil(2.0 * count * PAYLOAD / (QUOTA + SLACK_PER_WINDOW)) - 2;
            assertThat(slowest)
                    .as(
                            "throttled to about the quota: 4000 bytes at %d/s (other tenant: %d ms)",
                            QUOTA, TimeUnit.NANOSECONDS.toMillis(otherTook))
                    .isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(fewestWindows))
                    .isGreaterThan(otherTook);
        }
        assertThat(delayed(0, limited)).as("QoS 1 held on node 0").isPositive();
        assertThat(dropped(0) + dropped(1) - droppedBefore)
                .as("no QoS 1 dropped for the quota")
                .isEqualTo(2.0 * offered - at0.size() - at1.size());

        for (Mqtt5BlockingClient c : List.of(sub0, sub1, otherSub, publisher, otherPublisher, q1Clean, q1Other)) {
            c.disconnect();
        }
        q1Persistent.disconnectWith().sessionExpiryInterval(0).send();
    }

    /** Receives {@code count} messages into {@code into}; the nanoseconds from {@code start} to the last. */
    private static long receive(Mqtt5BlockingClient.Mqtt5Publishes in, List<Integer> into, int count, long start)
            throws InterruptedException {
        while (into.size() < count) {
            Optional<Mqtt5Publish> next = in.receive(30, TimeUnit.SECONDS);
            assertThat(next).as("message %d of %d", into.size(), count).isPresent();
            into.add(ByteBuffer.wrap(next.get().getPayloadAsBytes()).getInt());
        }
        return System.nanoTime() - start;
    }

    private static double refusals(int node, String tenant) throws Exception {
        return metric(node, "tributary_tenant_quota_refusals_total{", "quota=\"delivery_bytes\"", tenant);
    }

    private static double delayed(int node, String tenant) throws Exception {
        return metric(node, "tributary_tenant_delivery_delayed_total{", "", tenant);
    }

    private static double dropped(int node) throws Exception {
        return metric(node, "tributary_deliveries_dropped_total{", "reason=\"tenant_quota\"", null);
    }

    /** The sum of one transport node's series of {@code name} with {@code tag} (and {@code tenant}, when given). */
    private static double metric(int node, String name, String tag, String tenant) throws Exception {
        HttpResponse<String> scrape = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create(cluster.transportManagementUrl(node) + "/actuator/prometheus"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return scrape.body()
                .lines()
                .filter(l -> l.startsWith(name)
                        && l.contains(tag)
                        && (tenant == null || l.contains("tenant=\"" + tenant + "\"")))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
