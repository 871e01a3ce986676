package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.AdminRequests;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.NodeProbe;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code $SYS} statistics: each transport node publishes its own under {@code $SYS/broker/nodes/<node>/}, one
 * session-service instance the cluster-wide ones under {@code $SYS/broker/}, as retained messages through Kafka, so a
 * subscriber to {@code $SYS/#} on any node gets them with plausible values; {@code #} does not match them; clients
 * cannot publish to {@code $SYS}. Routers publish their hops' latency under {@code $SYS/broker/routers/<router>/},
 * and the admin API's overview puts every hop together. The cluster publishes every {@link TributaryCluster#SYS_INTERVAL}.
 */
@ExtendWith(LogsOnFailure.class)
class SysTopicsTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void sys_subscriber_gets_per_node_and_cluster_statistics_and_hash_alone_gets_none() throws Exception {
        String node1 = cluster.nodeId(0);
        String node2 = cluster.nodeId(1);
        BlockingQueue<String> everything = new LinkedBlockingQueue<>();
        MqttClient hashSubscriber =
                Clients.paho3(cluster.mqttPort(1), id("hash"), MqttConnectOptions.MQTT_VERSION_3_1_1);
        hashSubscriber.subscribe("#", 0, (topic, message) -> everything.add(topic));

        Mqtt5BlockingClient sys = hive5(cluster.mqttPort(0), id("sys"));
        sys.connect();
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = sys.publishes(MqttGlobalPublishFilter.ALL)) {
            sys.subscribeWith().topicFilter("$SYS/#").qos(MqttQos.AT_MOST_ONCE).send();
            String marker = "it/sys/" + id("m");
            publisher
                    .publishWith()
                    .topic(marker)
                    .payload(new byte[] {1})
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();

            Map<String, String> latest = new HashMap<>();
            // Values published after both clients connected and the marker went through node 2.
            awaitStats(
                    in,
                    latest,
                    Map.of(
                            "$SYS/broker/nodes/" + node1 + "/clients/connected",
                            atLeast(1),
                            "$SYS/broker/nodes/" + node2 + "/clients/connected",
                            atLeast(2),
                            "$SYS/broker/nodes/" + node2 + "/messages/received",
                            atLeast(1),
                            "$SYS/broker/nodes/" + node1 + "/messages/sent",
                            atLeast(1),
                            "$SYS/broker/clients/connected",
                            atLeast(3),
                            "$SYS/broker/clients/total",
                            atLeast(3),
                            "$SYS/broker/nodes/count",
                            v -> v.equals("2"),
                            "$SYS/broker/messages/received",
                            atLeast(1),
                            "$SYS/broker/subscriptions/count",
                            atLeast(2)));
            awaitStats(
                    in,
                    latest,
                    Map.of(
                            "$SYS/broker/nodes/" + node1 + "/uptime",
                            v -> v.matches("\\d+ seconds"),
                            "$SYS/broker/nodes/" + node1 + "/version",
                            v -> v.startsWith("tributary "),
                            "$SYS/broker/version",
                            v -> v.startsWith("tributary "),
                            "$SYS/broker/clients/disconnected",
                            atLeast(0),
                            "$SYS/broker/retained messages/count",
                            atLeast(1),
                            "$SYS/broker/messages/sent",
                            atLeast(1)));
            long uptime = Long.parseLong(
                    latest.get("$SYS/broker/nodes/" + node1 + "/uptime").split(" ")[0]);
            assertThat(uptime).isLessThan(24 * 3600);

            // '#' got the marker, but none of the $SYS messages published meanwhile (MQTT 4.7.2).
            publisher
                    .publishWith()
                    .topic(marker)
                    .payload(new byte[] {2})
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            List<String> hashTopics = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (hashTopics.stream().filter(marker::equals).count() < 2 && System.nanoTime() < deadline) {
                Optional.ofNullable(everything.poll(1, TimeUnit.SECONDS)).ifPresent(hashTopics::add);
            }
            assertThat(hashTopics).filteredOn(marker::equals).hasSize(2);
            assertThat(hashTopics).noneMatch(t -> t.startsWith("$"));
        } finally {
            publisher.disconnect();
            sys.disconnect();
            hashSubscriber.disconnect();
            hashSubscriber.close();
        }
    }

    @Test
    void routers_publish_their_hop_latencies_and_the_overview_shows_every_hop_of_the_data_path() throws Exception {
        Mqtt5BlockingClient sys = hive5(cluster.mqttPort(0), id("sysl"));
        sys.connect();
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("publ"));
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = sys.publishes(MqttGlobalPublishFilter.ALL)) {
            String topic = "it/sys-latency/" + id("t");
            sys.subscribeWith().topicFilter(topic).qos(MqttQos.AT_LEAST_ONCE).send();
            sys.subscribeWith().topicFilter("$SYS/broker/routers/+/latency/#").send();
            // Traffic through every hop: node 1 → Kafka → router → node 0's downlink → the subscriber's socket.
            Map<String, String> latest = new HashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            JsonNode hops = null;
            while (System.nanoTime() < deadline) {
                publisher
                        .publishWith()
                        .topic(topic)
                        .payload(new byte[] {1})
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();
                Optional<Mqtt5Publish> next = in.receive(200, TimeUnit.MILLISECONDS);
                next.filter(p -> p.getTopic().toString().startsWith("$SYS/"))
                        .ifPresent(p -> latest.put(
                                p.getTopic().toString(), new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8)));
                hops = overview().get("latency");
                if (latest.keySet().stream().anyMatch(t -> t.endsWith("/latency/route/p99"))
                        && hops.valueStream().allMatch(h -> h.get("instances").asInt() > 0)) {
                    break;
                }
            }
            assertThat(latest.keySet())
                    .as("router figures over MQTT")
                    .anyMatch(t -> t.matches("\\$SYS/broker/routers/[^/]+/latency/route/p99"));
            assertThat(latest.values()).allMatch(v -> v.matches("\\d+\\.\\d{3}"));
            assertThat(hops.valueStream().map(h -> h.get("hop").asString()))
                    .containsExactly("publish-ack", "publish-to-router", "route", "downlink-to-node", "node-to-socket");
            for (JsonNode hop : hops) {
                assertThat(hop.get("instances").asInt())
                        .as("instances of %s", hop)
                        .isPositive();
                // The two hops measured from Kafka record timestamps have millisecond resolution: 0 is possible.
                boolean millisecondClock = hop.get("hop").asString().endsWith("-to-router")
                        || hop.get("hop").asString().equals("downlink-to-node");
                assertThat(hop.get("p99Millis").asDouble())
                        .as("p99 of %s", hop)
                        .isGreaterThanOrEqualTo(millisecondClock ? 0 : 0.001)
                        .isLessThan(60_000);
            }
            assertThat(hops.get(0).get("instances").asInt())
                    .as("both nodes publish")
                    .isEqualTo(2);
        } finally {
            publisher.disconnect();
            sys.disconnect();
        }
    }

    private static JsonNode overview() throws Exception {
        HttpResponse<String> response = HTTP.send(
                AdminRequests.to(cluster.sessionApiUrl(), "/api/v1/overview")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    @Test
    void clients_cannot_publish_to_sys() throws Exception {
        NodeProbe probe = new NodeProbe(cluster, 0);
        double refusedBefore = refused(probe);
        String topic = "$SYS/broker/clients/connected";

        // MQTT 5: PUBACK 0x87 Not authorized.
        try (RawMqtt v5 = new RawMqtt(cluster.mqttPort(0))) {
            v5.send(Mqtt5Packets.connect(id("sysp5"), 30));
            assertThat(Mqtt5Packets.reasonCode(v5.readPacket(10_000))).isZero();
            v5.send(Mqtt5Packets.publish(topic, 1, 1, "999999".getBytes(StandardCharsets.UTF_8)));
            byte[] puback = v5.readPacket(10_000);
            assertThat(Mqtt5Packets.type(puback)).isEqualTo(4);
            assertThat(Mqtt5Packets.reasonCode(puback)).isEqualTo(0x87);
            v5.send(Mqtt5Packets.disconnect());
        }
        // MQTT 3.1.1 cannot be told: a normal PUBACK, and the message is dropped.
        MqttClient v311 = Clients.paho3(cluster.mqttPort(0), id("sysp3"), MqttConnectOptions.MQTT_VERSION_3_1_1);
        v311.publish(topic, "999999".getBytes(StandardCharsets.UTF_8), 1, false);
        v311.disconnect();
        v311.close();
        assertThat(refused(probe) - refusedBefore).isEqualTo(2.0);
        // Nor through a will: CONNECT with a will topic in $SYS is refused 0x87.
        try (RawMqtt will = new RawMqtt(cluster.mqttPort(0))) {
            will.send(Mqtt5Packets.connectWithWill(
                    id("sysw"), 30, 0, "$SYS/broker/version", "fake".getBytes(StandardCharsets.UTF_8), 0, 0));
            byte[] connack = will.readPacket(10_000);
            assertThat(Mqtt5Packets.type(connack)).isEqualTo(2);
            assertThat(Mqtt5Packets.reasonCode(connack)).isEqualTo(0x87);
        }

        // Nor did either reach Kafka: the retained value a new subscriber gets is the broker's own.
        Mqtt5BlockingClient reader = hive5(cluster.mqttPort(1), id("sysr"));
        reader.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = reader.publishes(MqttGlobalPublishFilter.ALL)) {
            reader.subscribeWith().topicFilter(topic).send();
            Mqtt5Publish retained =
                    in.receive(10, TimeUnit.SECONDS).orElseThrow(() -> new AssertionError("no retained " + topic));
            assertThat(retained.isRetain()).isTrue();
            assertThat(new String(retained.getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isNotEqualTo("999999");
        } finally {
            reader.disconnect();
        }
    }

    private static double refused(NodeProbe probe) throws Exception {
        return NodeProbe.sum(probe.scrape(), "tributary_deliveries_dropped_total", "reason=\"sys_topic\"");
    }

    private static Predicate<String> atLeast(long minimum) {
        return v -> v.matches("\\d+") && Long.parseLong(v) >= minimum;
    }

    /** Reads {@code $SYS} messages until every topic of {@code expected} has a value its predicate accepts. */
    private static void awaitStats(
            Mqtt5BlockingClient.Mqtt5Publishes in, Map<String, String> latest, Map<String, Predicate<String>> expected)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Map<String, Boolean> met = new HashMap<>();
        while (met.size() < expected.size()) {
            long left = deadline - System.nanoTime();
            Optional<Mqtt5Publish> next = left <= 0 ? Optional.empty() : in.receive(left, TimeUnit.NANOSECONDS);
            if (next.isEmpty()) {
                throw new AssertionError("$SYS statistics not as expected within 30 s; met " + met.keySet()
                        + ", latest values " + latest);
            }
            Mqtt5Publish p = next.get();
            String topic = p.getTopic().toString();
            assertThat(topic).startsWith("$SYS/");
            String value = new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8);
            latest.put(topic, value);
            Predicate<String> check = expected.get(topic);
            if (check != null && check.test(value)) {
                met.put(topic, true);
            }
        }
    }
}
