package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Metering, the issue's acceptance test: two tenants' clients on both nodes of the shared cluster publish and receive
 * known numbers of messages and bytes; the tenants' metering totals, on the admin API and on the compacted
 * {@code tributary.metering} topic, equal what the test sent and received, and their connection seconds lie within
 * what the test's clients were connected. A client without a tenant publishing meanwhile is metered nowhere.
 */
@ExtendWith(LogsOnFailure.class)
class TenantMeteringTest {

    private static final String PASSWORD = "pw-metering";
    /** The billing topic, read as a billing system would: a plain consumer, JSON values. */
    private static final String METERING_TOPIC = "tributary.metering";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static TributaryCluster cluster;
    private static AuthApi api;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
        api = new AuthApi(cluster.sessionApiUrl());
    }

    /** What one tenant's clients did, as the test counts it. */
    private static final class Sent {
        long messagesIn;
        long bytesIn;
        long messagesOut;
        long bytesOut;
        long connectedMillisAtLeast;
        long connectedMillisAtMost;
    }

    /** Totals as the billing topic's records hold them. */
    private record Totals(long messagesIn, long bytesIn, long messagesOut, long bytesOut, long connectionSeconds) {

        static Totals of(JsonNode n) {
            return new Totals(
                    n.path("messagesIn").asLong(),
                    n.path("bytesIn").asLong(),
                    n.path("messagesOut").asLong(),
                    n.path("bytesOut").asLong(),
                    n.path("connectionSeconds").asLong());
        }

        Totals plus(Totals o) {
            return new Totals(
                    messagesIn + o.messagesIn,
                    bytesIn + o.bytesIn,
                    messagesOut + o.messagesOut,
                    bytesOut + o.bytesOut,
                    connectionSeconds + o.connectionSeconds);
        }
    }

    private record Client(Mqtt5BlockingClient mqtt, long connectStartedNanos, long connectedNanos) {}

    private static Client connect(String user, int node) {
        Mqtt5BlockingClient mqtt = Clients.hive5(cluster.mqttPort(node), Clients.id("tm"));
        long started = System.nanoTime();
        AuthenticationTest.connect(mqtt, user, PASSWORD);
        return new Client(mqtt, started, System.nanoTime());
    }

    /** Disconnects and adds the time it was connected: at least CONNACK to DISCONNECT, at most CONNECT to its end. */
    private static void disconnect(Client client, Sent sent) {
        long disconnecting = System.nanoTime();
        client.mqtt().disconnect();
        long disconnected = System.nanoTime();
        sent.connectedMillisAtLeast += TimeUnit.NANOSECONDS.toMillis(disconnecting - client.connectedNanos());
        sent.connectedMillisAtMost += TimeUnit.NANOSECONDS.toMillis(disconnected - client.connectStartedNanos()) + 1;
    }

    private static Mqtt5BlockingClient.Mqtt5Publishes subscribe(Client client, String filter) {
        Mqtt5BlockingClient.Mqtt5Publishes publishes = client.mqtt().publishes(MqttGlobalPublishFilter.ALL);
        client.mqtt()
                .subscribeWith()
                .topicFilter(filter)
                .qos(MqttQos.AT_LEAST_ONCE)
                .send();
        return publishes;
    }

    /** Publishes {@code count} messages of growing payloads; counts them as the tenant's input. */
    private static long publish(Client client, String topic, int count, MqttQos qos, int size, Sent sent) {
        long bytes = 0;
        for (int i = 0; i < count; i++) {
            byte[] payload = "p".repeat(size + i).getBytes(StandardCharsets.UTF_8);
            client.mqtt().publishWith().topic(topic).qos(qos).payload(payload).send();
            bytes += payload.length;
        }
        sent.messagesIn += count;
        sent.bytesIn += bytes;
        return bytes;
    }

    /** Receives {@code count} messages; counts them as the tenant's output. */
    private static void receive(Mqtt5BlockingClient.Mqtt5Publishes publishes, int count, Sent sent)
            throws InterruptedException {
        for (int i = 0; i < count; i++) {
            var p = publishes.receive(15, TimeUnit.SECONDS);
            assertThat(p).as("message %d of %d", i + 1, count).isPresent();
            sent.messagesOut++;
            sent.bytesOut += p.get().getPayloadAsBytes().length;
        }
        assertThat(publishes.receive(300, TimeUnit.MILLISECONDS))
                .as("nothing more")
                .isEmpty();
    }

    @Test
    void metering_totals_equal_what_two_tenants_sent_and_received() throws Exception {
        String a = Clients.id("ma");
        String b = Clients.id("mb");
        api.createTenant(a);
        api.createTenant(b);
        String userA = Clients.id("ua");
        String userB = Clients.id("ub");
        api.create(AuthApi.credential(userA, PASSWORD, a, List.of("#")));
        api.create(AuthApi.credential(userB, PASSWORD, b, List.of("#")));
        Sent sentA = new Sent();
        Sent sentB = new Sent();

        // Tenant A: publisher on node 0, one subscriber on node 1. Tenant B: publisher on node 1, subscribers on
        // both nodes. The same topic names in both namespaces.
        Client pubA = connect(userA, 0);
        Client subA = connect(userA, 1);
        Client pubB = connect(userB, 1);
        Client subB0 = connect(userB, 0);
        Client subB1 = connect(userB, 1);
        var toA = subscribe(subA, "meters/#");
        var toB0 = subscribe(subB0, "meters/#");
        var toB1 = subscribe(subB1, "meters/#");
        // A client without a tenant publishing on the same names is not metered (and reaches neither tenant).
        Mqtt5BlockingClient global = Clients.hive5(cluster.mqttPort(0), Clients.id("tm-g"));
        global.connect();
        global.publishWith()
                .topic("meters/1")
                .qos(MqttQos.AT_LEAST_ONCE)
                .payload(new byte[1000])
                .send();

        publish(pubA, "meters/1", 5, MqttQos.AT_LEAST_ONCE, 10, sentA);
        publish(pubA, "meters/2", 3, MqttQos.EXACTLY_ONCE, 100, sentA);
        publish(pubA, "meters/3", 2, MqttQos.AT_MOST_ONCE, 7, sentA);
        publish(pubB, "meters/1", 4, MqttQos.AT_LEAST_ONCE, 50, sentB);
        receive(toA, 10, sentA);
        receive(toB0, 4, sentB);
        receive(toB1, 4, sentB);

        global.disconnect();
        for (Client c : List.of(pubA, subA)) {
            disconnect(c, sentA);
        }
        for (Client c : List.of(pubB, subB0, subB1)) {
            disconnect(c, sentB);
        }
        assertThat(sentA.messagesOut).isEqualTo(sentA.messagesIn);
        assertThat(sentB.messagesOut).isEqualTo(2 * sentB.messagesIn);

        assertMetered(a, sentA);
        assertMetered(b, sentB);
    }

    /** The admin API's totals (the last 24 hours: the test may straddle an hour) and the billing topic's agree. */
    private static void assertMetered(String tenant, Sent sent) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        JsonNode totals = api.usage(tenant).path("totals");
        while (!counted(totals, sent) && System.nanoTime() < deadline) {
            Thread.sleep(250);
            totals = api.usage(tenant).path("totals");
        }
        assertThat(totals.path("messagesIn").asLong())
                .as("%s messages in: %s", tenant, totals)
                .isEqualTo(sent.messagesIn);
        assertThat(totals.path("bytesIn").asLong()).as("%s bytes in", tenant).isEqualTo(sent.bytesIn);
        assertThat(totals.path("messagesOut").asLong())
                .as("%s messages out", tenant)
                .isEqualTo(sent.messagesOut);
        assertThat(totals.path("bytesOut").asLong()).as("%s bytes out", tenant).isEqualTo(sent.bytesOut);
        // Added up in milliseconds per hour, shown in whole seconds per hour (at most two hours here).
        long seconds = totals.path("connectionSeconds").asLong();
        assertThat(seconds)
                .as(
                        "%s connection seconds (connected between %d and %d ms)",
                        tenant, sent.connectedMillisAtLeast, sent.connectedMillisAtMost)
                .isBetween(sent.connectedMillisAtLeast / 1000 - 2, sent.connectedMillisAtMost / 1000 + 1);
        // Connection time keeps counting until the nodes' next interval after the disconnects: wait until it is stable
        // on the admin API, then the topic's last records of the tenant's hours hold the same totals.
        Thread.sleep(3 * TributaryCluster.METERING_INTERVAL.toMillis());
        Totals settled = Totals.of(api.usage(tenant).path("totals"));
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Totals onTopic = onTopic(tenant);
        while (!settled.equals(onTopic) && System.nanoTime() < deadline) {
            Thread.sleep(250);
            settled = Totals.of(api.usage(tenant).path("totals"));
            onTopic = onTopic(tenant);
        }
        assertThat(onTopic)
                .as("%s: last records on %s, summed over its hours", tenant, METERING_TOPIC)
                .isEqualTo(new Totals(
                        sent.messagesIn, sent.bytesIn, sent.messagesOut, sent.bytesOut, settled.connectionSeconds()));
    }

    private static boolean counted(JsonNode totals, Sent sent) {
        return totals.path("messagesIn").asLong() == sent.messagesIn
                && totals.path("bytesIn").asLong() == sent.bytesIn
                && totals.path("messagesOut").asLong() == sent.messagesOut
                && totals.path("bytesOut").asLong() == sent.bytesOut;
    }

    /**
     * What a billing system reads: {@code tributary.metering} from the beginning with a plain consumer, the last
     * record of each {@code <tenant>|<hour>} key, summed over the tenant's hours (hour = the latest of them).
     */
    private static Totals onTopic(String tenant) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrapServers());
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Map<String, JsonNode> last = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(METERING_TOPIC, Duration.ofSeconds(10))
                    .forEach(p -> partitions.add(new TopicPartition(METERING_TOPIC, p.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    String key = new String(r.key(), StandardCharsets.UTF_8);
                    if (key.startsWith(tenant + "|")) {
                        JsonNode value = JSON.readTree(r.value());
                        assertThat(value.path("tenant").asString()).isEqualTo(tenant);
                        assertThat(key)
                                .isEqualTo(tenant + "|" + value.path("hour").asString());
                        last.put(key, value);
                    }
                }
            }
        }
        Totals sum = new Totals(0, 0, 0, 0, 0);
        for (JsonNode t : last.values()) {
            sum = sum.plus(Totals.of(t));
        }
        return sum;
    }
}
