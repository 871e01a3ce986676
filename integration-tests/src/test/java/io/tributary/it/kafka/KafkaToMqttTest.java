package io.tributary.it.kafka;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.AdminRequests;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Kafka-to-MQTT rules on the two-node cluster: one plain Kafka record produced by a backend (key = device) reaches
 * an online subscriber and an offline persistent subscriber (through its session queue, on reconnect) exactly once,
 * on the topic the rule builds from the key, with the rule's QoS (without one, each record's text {@code mqtt.qos}
 * header's); records of other keys reach other topics; bad
 * rules are refused with 400.
 */
@ExtendWith(LogsOnFailure.class)
class KafkaToMqttTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PATH = "/api/v1/rules/kafka-to-mqtt";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
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

    private static void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                    .all()
                    .get(20, TimeUnit.SECONDS);
        }
    }

    private static void produce(String topic, String key, String value) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
            producer.send(new ProducerRecord<>(
                            topic, key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)))
                    .get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void one_plain_kafka_record_reaches_an_online_and_an_offline_persistent_subscriber_exactly_once() throws Exception {
        String kafkaTopic = id("it-commands");
        String prefix = id("dev");
        createTopic(kafkaTopic, 3);
        HttpResponse<String> created = send(
                "POST",
                PATH,
                JSON.createObjectNode()
                        .put("kafkaTopic", kafkaTopic)
                        .put("mqttTopic", prefix + "/{key}/commands")
                        .put("qos", 1)
                        .toString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long ruleId = JSON.readTree(created.body()).path("id").asLong();

        String offlineId = id("k2m-off");
        Mqtt5BlockingClient offline = hive5(cluster.mqttPort(1), offlineId);
        offline.connectWith().cleanStart(true).sessionExpiryInterval(600).send();
        offline.subscribeWith()
                .topicFilter(prefix + "/+/commands")
                .qos(MqttQos.AT_LEAST_ONCE)
                .send();
        offline.disconnect();

        Mqtt5BlockingClient online = hive5(cluster.mqttPort(0), id("k2m-on"));
        online.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes received = online.publishes(MqttGlobalPublishFilter.ALL)) {
            online.subscribeWith()
                    .topicFilter(prefix + "/device-7/commands")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            produce(kafkaTopic, "device-7", "{\"open\":true}");
            produce(kafkaTopic, "device-8", "other device");

            Optional<Mqtt5Publish> command = received.receive(20, TimeUnit.SECONDS);
            assertThat(command).as("the command reaches the online subscriber").isPresent();
            assertThat(command.get().getTopic().toString()).isEqualTo(prefix + "/device-7/commands");
            assertThat(new String(command.get().getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("{\"open\":true}");
            assertThat(command.get().getQos()).isEqualTo(MqttQos.AT_LEAST_ONCE);
            assertThat(received.receive(3, TimeUnit.SECONDS))
                    .as("once, and not device-8's")
                    .isEmpty();
        } finally {
            online.disconnect();
        }

        Mqtt5BlockingClient back = hive5(cluster.mqttPort(0), offlineId);
        try (Mqtt5BlockingClient.Mqtt5Publishes queued = back.publishes(MqttGlobalPublishFilter.ALL)) {
            assertThat(back.connectWith()
                            .cleanStart(false)
                            .sessionExpiryInterval(600)
                            .send()
                            .isSessionPresent())
                    .isTrue();
            Optional<Mqtt5Publish> first = queued.receive(20, TimeUnit.SECONDS);
            Optional<Mqtt5Publish> second = queued.receive(20, TimeUnit.SECONDS);
            assertThat(List.of(first, second)).allMatch(Optional::isPresent);
            assertThat(List.of(
                            first.get().getTopic().toString(),
                            second.get().getTopic().toString()))
                    .containsExactlyInAnyOrder(prefix + "/device-7/commands", prefix + "/device-8/commands");
            assertThat(queued.receive(3, TimeUnit.SECONDS))
                    .as("each exactly once")
                    .isEmpty();
        } finally {
            back.disconnect();
            send("DELETE", PATH + "/" + ruleId, null);
        }
    }

    @Test
    void without_a_qos_in_the_rule_the_text_mqtt_qos_header_of_each_record_decides() throws Exception {
        String kafkaTopic = id("it-k2m-qos");
        String prefix = id("hq");
        createTopic(kafkaTopic, 1);
        HttpResponse<String> created = send(
                "POST",
                PATH,
                JSON.createObjectNode()
                        .put("kafkaTopic", kafkaTopic)
                        .put("mqttTopic", prefix + "/{key}")
                        .toString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long ruleId = JSON.readTree(created.body()).path("id").asLong();
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("k2m-hq"));
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL);
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrapServers(),
                        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
            subscriber
                    .subscribeWith()
                    .topicFilter(prefix + "/#")
                    .qos(MqttQos.EXACTLY_ONCE)
                    .send();
            // Headers as Kafka Connect's SimpleHeaderConverter or kcat write them: decimal text.
            for (String qos : new String[] {"0", "1"}) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                        kafkaTopic, ("q" + qos).getBytes(StandardCharsets.UTF_8), "m".getBytes(StandardCharsets.UTF_8));
                record.headers().add("mqtt.qos", qos.getBytes(StandardCharsets.UTF_8));
                producer.send(record).get(20, TimeUnit.SECONDS);
            }
            // Two MQTT topics: MQTT orders messages per topic only, so they may arrive either way round.
            Map<String, MqttQos> qosByTopic = new HashMap<>();
            for (int i = 0; i < 2; i++) {
                Mqtt5Publish p = received.receive(20, TimeUnit.SECONDS).orElseThrow();
                qosByTopic.put(p.getTopic().toString(), p.getQos());
            }
            assertThat(qosByTopic)
                    .containsOnly(
                            Map.entry(prefix + "/q0", MqttQos.AT_MOST_ONCE),
                            Map.entry(prefix + "/q1", MqttQos.AT_LEAST_ONCE));
        } finally {
            subscriber.disconnect();
            send("DELETE", PATH + "/" + ruleId, null);
        }
    }

    /**
     * docs/kafka.md's "Kafka records to MQTT devices" example, run as written: its rule body, then Apache Kafka's own
     * console producer (the class {@code bin/kafka-console-producer.sh} runs, in a JVM of its own) with the page's
     * arguments and input line; the MQTT subscriber must print what the page says it prints. Only the bootstrap address
     * and the Kafka topic name are replaced (this cluster's, and a fresh topic).
     */
    @Test
    void the_readme_console_producer_command_reaches_the_device() throws Exception {
        List<String> readme = Files.readAllLines(Path.of("..", "docs", "kafka.md"), StandardCharsets.UTF_8);
        String kafkaTopic = id("readme-commands");
        String ruleLine = readme.stream()
                .filter(l -> l.contains("\"mqttTopic\":\"devices/{key}/commands\""))
                .findFirst()
                .orElseThrow(() -> new AssertionError("docs/kafka.md has no kafka-to-mqtt rule example"));
        String rule = ruleLine.substring(ruleLine.indexOf('{'), ruleLine.lastIndexOf('}') + 1)
                .replace("device-commands", kafkaTopic);
        int producerAt = indexOf(readme, "kafka-console-producer.sh");
        String command = readme.get(producerAt).replaceAll("\\\\\\s*$", "") + " " + readme.get(producerAt + 1);
        String input = command.substring(command.indexOf("echo '") + 6, command.indexOf("' |"));
        List<String> args = new ArrayList<>();
        for (String arg : command.substring(command.indexOf("kafka-console-producer.sh") + 25)
                .trim()
                .split("\\s+")) {
            args.add(arg.replace("127.0.0.1:29092", cluster.kafkaBootstrapServers())
                    .replace("device-commands", kafkaTopic));
        }
        String prints = readme.get(indexOf(readme, "# mosquitto_sub prints:"));
        String[] expected =
                prints.substring(prints.indexOf("prints:") + 7).trim().split(" ", 2);

        HttpResponse<String> created = send("POST", PATH, rule);
        assertThat(created.statusCode()).as(rule + " -> " + created.body()).isEqualTo(201);
        long ruleId = JSON.readTree(created.body()).path("id").asLong();
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(1), id("k2m-readme"));
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter("devices/+/commands")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            List<String> java = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    "org.apache.kafka.tools.ConsoleProducer"));
            java.addAll(args);
            Process producer =
                    new ProcessBuilder(java).redirectErrorStream(true).start();
            try (var stdin = producer.getOutputStream()) {
                stdin.write((input + "\n").getBytes(StandardCharsets.UTF_8));
            }
            assertThat(producer.waitFor(60, TimeUnit.SECONDS))
                    .as("the console producer ends at end of input")
                    .isTrue();
            String output = new String(producer.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(producer.exitValue()).as("%s -> %s", args, output).isZero();

            Mqtt5Publish command1 = received.receive(30, TimeUnit.SECONDS)
                    .orElseThrow(() -> new AssertionError("nothing reached the device"));
            assertThat(command1.getTopic().toString()).isEqualTo(expected[0]);
            assertThat(new String(command1.getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isEqualTo(expected[1]);
        } finally {
            subscriber.disconnect();
            send("DELETE", PATH + "/" + ruleId, null);
        }
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        throw new AssertionError("docs/kafka.md has no line with " + text);
    }

    @Test
    void bad_rules_are_refused_with_400_and_a_message() throws Exception {
        String existing = id("it-k2m");
        createTopic(existing, 1);
        Map<String, String> refusals = Map.of(
                JSON.createObjectNode()
                        .put("kafkaTopic", id("missing"))
                        .put("mqttTopic", "d/{key}")
                        .toString(),
                "does not exist",
                JSON.createObjectNode()
                        .put("kafkaTopic", existing)
                        .put("mqttTopic", "d/+/c")
                        .toString(),
                "wildcard",
                JSON.createObjectNode()
                        .put("kafkaTopic", existing)
                        .put("mqttTopic", "d/{vin}")
                        .toString(),
                "{key}",
                JSON.createObjectNode()
                        .put("kafkaTopic", existing)
                        .put("mqttTopic", "d/{key}")
                        .put("qos", 3)
                        .toString(),
                "qos");
        for (Map.Entry<String, String> refusal : refusals.entrySet()) {
            HttpResponse<String> r = send("POST", PATH, refusal.getKey());
            assertThat(r.statusCode()).as(refusal.getKey() + " -> " + r.body()).isEqualTo(400);
            JsonNode body = JSON.readTree(r.body());
            assertThat(body.path("error").asString()).contains(refusal.getValue());
        }
    }
}
