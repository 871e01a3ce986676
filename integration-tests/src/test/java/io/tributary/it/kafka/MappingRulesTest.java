package io.tributary.it.kafka;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.AdminRequests;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.NodeProbe;
import io.tributary.it.support.TributaryCluster;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * MQTT-to-Kafka mapping rules on the two-node cluster: a rule made through the admin API applies on both nodes
 * without a restart; a publish it matches is read by a plain Kafka consumer from the user's topic with the key the
 * rule names, payload untouched and the MQTT metadata in headers, and still reaches MQTT subscribers; a publish it
 * does not match stays out; bad rules are refused with 400 and a message; a removed rule stops applying.
 */
@ExtendWith(LogsOnFailure.class)
class MappingRulesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PATH = "/api/v1/rules/mqtt-to-kafka";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static TributaryCluster cluster;
    private final List<Long> created = new ArrayList<>();

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @AfterEach
    void removeRules() throws Exception {
        for (long id : created) {
            send("DELETE", PATH + "/" + id, null);
        }
        awaitRulesOnBothNodes(0);
    }

    private static HttpResponse<String> send(String method, String path, String body) throws Exception {
        return HTTP.send(
                AdminRequests.to(cluster.sessionApiUrl(), path)
                        .header("Content-Type", "application/json")
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static ObjectNode rule(String filter, String kafkaTopic, String key, Integer partitions) {
        ObjectNode body = JSON.createObjectNode().put("filter", filter).put("kafkaTopic", kafkaTopic);
        if (key != null) {
            body.put("key", key);
        }
        if (partitions != null) {
            body.put("partitions", partitions);
        }
        return body;
    }

    private long create(ObjectNode rule) throws Exception {
        HttpResponse<String> response = send("POST", PATH, rule.toString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        long id = JSON.readTree(response.body()).path("id").asLong();
        created.add(id);
        return id;
    }

    /** Both nodes report applying {@code expected} rules (the tributary_mapping_rules gauge). */
    private static void awaitRulesOnBothNodes(int expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (int node = 0; node < 2; node++) {
            NodeProbe probe = new NodeProbe(cluster, node);
            while (NodeProbe.sum(probe.scrape(), "tributary_mapping_rules") != expected) {
                assertThat(System.nanoTime())
                        .as("node %d applies %d rule(s)", node, expected)
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    @Test
    void a_mapped_publish_reaches_the_users_topic_keyed_by_a_named_level_and_still_reaches_mqtt_subscribers()
            throws Exception {
        String kafkaTopic = id("it-telemetry");
        String prefix = id("veh");
        create(rule(prefix + "/{vin}/telemetry/#", kafkaTopic, "{vin}", 3));
        awaitRulesOnBothNodes(1);

        Mqtt5BlockingClient subscriber = Clients.hive5(cluster.mqttPort(1), id("map-sub"));
        subscriber.connect();
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(0), id("map-pub"));
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes received =
                subscriber.publishes(com.hivemq.client.mqtt.MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(prefix + "/#")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            // PUBACK returns only once both records are stored: the Kafka reads below need no retry for them.
            publisher
                    .publishWith()
                    .topic(prefix + "/VIN-A/telemetry/gps")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload(new byte[] {0, 1, 2, (byte) 0xFF})
                    .send();
            publisher
                    .publishWith()
                    .topic(prefix + "/VIN-B/telemetry/speed")
                    .qos(MqttQos.EXACTLY_ONCE)
                    .payload("88".getBytes(StandardCharsets.UTF_8))
                    .send();
            publisher
                    .publishWith()
                    .topic(prefix + "/VIN-A/status")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload("not mapped".getBytes(StandardCharsets.UTF_8))
                    .send();
            // Through the other node, from an independent client (Debian's mosquitto_pub), MQTT 3.1.1.
            if (onPath("mosquitto_pub")) {
                mosquittoPub(cluster.mqttPort(1), prefix + "/VIN-C/telemetry/temp", "21.5");
            }

            List<String> delivered = new ArrayList<>();
            for (int i = 0; i < (onPath("mosquitto_pub") ? 4 : 3); i++) {
                Optional<Mqtt5Publish> p = received.receive(15, TimeUnit.SECONDS);
                assertThat(p).as("MQTT delivery %d", i).isPresent();
                delivered.add(p.get().getTopic().toString());
            }
            assertThat(delivered)
                    .contains(
                            prefix + "/VIN-A/telemetry/gps",
                            prefix + "/VIN-B/telemetry/speed",
                            prefix + "/VIN-A/status");
        } finally {
            publisher.disconnect();
            subscriber.disconnect();
        }

        List<ConsumerRecord<byte[], byte[]>> records = readAll(kafkaTopic, onPath("mosquitto_pub") ? 3 : 2);
        assertThat(records)
                .extracting(r -> new String(r.key(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder(
                        onPath("mosquitto_pub")
                                ? new String[] {"VIN-A", "VIN-B", "VIN-C"}
                                : new String[] {"VIN-A", "VIN-B"});
        ConsumerRecord<byte[], byte[]> gps = records.stream()
                .filter(r -> new String(r.key(), StandardCharsets.UTF_8).equals("VIN-A"))
                .findFirst()
                .orElseThrow();
        assertThat(gps.value()).containsExactly(0, 1, 2, 0xFF);
        assertThat(header(gps, "mqtt.topic")).isEqualTo(prefix + "/VIN-A/telemetry/gps");
        assertThat(header(gps, "mqtt.client-id")).startsWith("map-pub");
        assertThat(new String(gps.headers().lastHeader("mqtt.qos").value(), StandardCharsets.UTF_8))
                .isEqualTo("1");
        assertThat(gps.headers().lastHeader("tributary.received-at")).isNotNull();
    }

    @Test
    void bad_rules_are_refused_with_400_and_a_message() throws Exception {
        String topic = id("it-bad");
        Map<ObjectNode, String> refusals = Map.of(
                rule("a/{vin}/#", topic, "{serial}", 1), "names no level",
                rule("a/#/b", topic, null, 1), "'#' must be the last level",
                rule("a/{vin}", topic, null, null), "does not exist",
                rule("a/{vin}", "tributary.publish", null, null), "reserved");
        for (Map.Entry<ObjectNode, String> refusal : refusals.entrySet()) {
            HttpResponse<String> response = send("POST", PATH, refusal.getKey().toString());
            assertThat(response.statusCode())
                    .as(refusal.getKey() + " -> " + response.body())
                    .isEqualTo(400);
            JsonNode body = JSON.readTree(response.body());
            assertThat(body.path("error").asString()).contains(refusal.getValue());
        }
        assertThat(JSON.readTree(send("GET", PATH, null).body()).size()).isZero();
    }

    @Test
    void a_removed_rule_stops_applying_without_a_restart() throws Exception {
        String kafkaTopic = id("it-removed");
        String prefix = id("rm");
        long id = create(rule(prefix + "/{device}", kafkaTopic, "client-id", 1));
        awaitRulesOnBothNodes(1);
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(1), id("rm-pub"));
        publisher.connect();
        try {
            publisher
                    .publishWith()
                    .topic(prefix + "/d1")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload(new byte[] {1})
                    .send();
            assertThat(send("DELETE", PATH + "/" + id, null).statusCode()).isEqualTo(204);
            created.remove(Long.valueOf(id));
            awaitRulesOnBothNodes(0);
            publisher
                    .publishWith()
                    .topic(prefix + "/d2")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload(new byte[] {2})
                    .send();
        } finally {
            publisher.disconnect();
        }
        readAll(kafkaTopic, 1); // waits for the first record
        // Give a wrongly mapped second record the time to show up before concluding it did not.
        Thread.sleep(1_000);
        List<ConsumerRecord<byte[], byte[]>> records = readAll(kafkaTopic, 1);
        assertThat(records).hasSize(1);
        assertThat(new String(records.get(0).key(), StandardCharsets.UTF_8)).startsWith("rm-pub");
        assertThat(records.get(0).value()).containsExactly(1);
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** Every record of the topic, read from the start by a plain consumer until at least {@code atLeast} came. */
    private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, int atLeast) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                id("it-reader"),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class))) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            // Past the minimum, one more poll: records beyond it would show a wrong mapping.
            boolean extra = true;
            while (System.nanoTime() < deadline && (out.size() < atLeast || extra)) {
                if (out.size() >= atLeast) {
                    extra = false;
                }
                consumer.poll(Duration.ofMillis(500)).forEach(out::add);
            }
            return out;
        }
    }

    private static void mosquittoPub(int port, String topic, String message) throws Exception {
        Process p = new ProcessBuilder(
                        "mosquitto_pub",
                        "-h",
                        "127.0.0.1",
                        "-p",
                        String.valueOf(port),
                        "-V",
                        "mqttv311",
                        "-q",
                        "1",
                        "-i",
                        id("mosq-map"),
                        "-t",
                        topic,
                        "-m",
                        message)
                .redirectErrorStream(true)
                .start();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue())
                .as(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isZero();
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
