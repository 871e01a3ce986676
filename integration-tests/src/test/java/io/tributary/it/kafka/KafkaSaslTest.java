package io.tributary.it.kafka;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.AdminRequests;
import io.tributary.it.support.EmbeddedEngines;
import io.tributary.it.support.NodeProbe;
import io.tributary.it.support.TributaryCluster;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Kafka that wants SASL (a SASL_PLAINTEXT listener, mechanism PLAIN, as a managed Kafka's SCRAM or IAM listener
 * wants credentials): a cluster of its own (session-service, routing-service, two transport nodes) reaches it with
 * the credentials given only as pass-through Kafka client properties ({@code TRIBUTARY_KAFKA_PROPERTIES_*}), and every
 * kind of Kafka client works through it: publish and downlink, the retained-message consumer, a mapping rule (the
 * nodes' rule consumer and the mapped write) and a Kafka-to-MQTT rule (its consumer). A wrong password stops a
 * transport node and a router at start-up, within seconds, naming the cause.
 */
class KafkaSaslTest {

    private static final String USER = "tributary";
    private static final String PASSWORD = "it-sasl-" + UUID.randomUUID();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static TributaryCluster cluster;

    /** What an operator sets on every service; nothing else about SASL reaches the services. */
    private static Map<String, String> credentials(String password) {
        return Map.of(
                "TRIBUTARY_KAFKA_PROPERTIES_SECURITY_PROTOCOL",
                "SASL_PLAINTEXT",
                "TRIBUTARY_KAFKA_PROPERTIES_SASL_MECHANISM",
                "PLAIN",
                "TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG",
                jaas(password));
    }

    private static String jaas(String password) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + USER + "\" password=\""
                + password + "\";";
    }

    /** The test's own Kafka clients authenticate the same way. */
    private static Map<String, Object> kafkaClient(Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put("bootstrap.servers", cluster.kafkaBootstrapServers());
        config.put("security.protocol", "SASL_PLAINTEXT");
        config.put("sasl.mechanism", "PLAIN");
        config.put("sasl.jaas.config", jaas(PASSWORD));
        return config;
    }

    @BeforeAll
    static void start() throws Exception {
        Path dir = Paths.get("target", "it-sasl-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(dir.resolve("logs"));
        cluster = TributaryCluster.start(
                dir,
                EmbeddedEngines.startWithSaslPlain(dir, dir.resolve("logs"), Map.of(USER, PASSWORD)),
                credentials(PASSWORD));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.stop();
        }
    }

    @Test
    void every_kafka_client_of_every_service_works_through_sasl_with_pass_through_credentials() throws Exception {
        String prefix = id("sasl");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("sasl-sub"));
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("sasl-pub"));
        subscriber.connect();
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(prefix + "/#")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();

            // Publish producer -> tributary.publish -> routing consumer -> downlink producer -> downlink consumer.
            publisher
                    .publishWith()
                    .topic(prefix + "/a")
                    .payload("over sasl".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .retain(true)
                    .send();
            assertThat(payloadOf(received.receive(20, TimeUnit.SECONDS), prefix + "/a"))
                    .isEqualTo("over sasl");

            // The retained-message consumer of session-service stored it: a later subscriber gets it.
            Mqtt5BlockingClient late = hive5(cluster.mqttPort(1), id("sasl-late"));
            late.connect();
            try (Mqtt5BlockingClient.Mqtt5Publishes retained = late.publishes(MqttGlobalPublishFilter.ALL)) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                Optional<Mqtt5Publish> got = Optional.empty();
                while (got.isEmpty() && System.nanoTime() < deadline) {
                    late.subscribeWith()
                            .topicFilter(prefix + "/a")
                            .qos(MqttQos.AT_LEAST_ONCE)
                            .send();
                    got = retained.receive(2, TimeUnit.SECONDS);
                    late.unsubscribeWith().topicFilter(prefix + "/a").send();
                }
                assertThat(got)
                        .as("the retained message, stored by the retained consumer")
                        .isPresent();
                assertThat(got.get().isRetain()).isTrue();
            } finally {
                late.disconnect();
            }

            // Mapping rule: session-service's admin creates the topic, the nodes' rule consumers apply the rule, the
            // publish producer writes the mapped record.
            String mapped = id("it-sasl-mapped");
            HttpResponse<String> rule = send(
                    "/api/v1/rules/mqtt-to-kafka",
                    JSON.createObjectNode()
                            .put("filter", prefix + "/{dev}/t")
                            .put("kafkaTopic", mapped)
                            .put("key", "{dev}")
                            .put("partitions", 1)
                            .toString());
            assertThat(rule.statusCode()).as(rule.body()).isEqualTo(201);
            awaitMappingRule(1);
            publisher
                    .publishWith()
                    .topic(prefix + "/dev-1/t")
                    .payload("mapped".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            ConsumerRecord<byte[], byte[]> record = firstRecord(mapped);
            assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("dev-1");
            assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo("mapped");
            assertThat(payloadOf(received.receive(20, TimeUnit.SECONDS), prefix + "/dev-1/t"))
                    .isEqualTo("mapped");

            // Kafka-to-MQTT rule: session-service's bridge consumer reads a backend's record.
            String commands = id("it-sasl-commands");
            try (Admin admin = Admin.create(kafkaClient(Map.of()))) {
                admin.createTopics(List.of(new NewTopic(commands, 1, (short) 1)))
                        .all()
                        .get(20, TimeUnit.SECONDS);
            }
            HttpResponse<String> bridge = send(
                    "/api/v1/rules/kafka-to-mqtt",
                    JSON.createObjectNode()
                            .put("kafkaTopic", commands)
                            .put("mqttTopic", prefix + "/{key}/cmd")
                            .put("qos", 1)
                            .toString());
            assertThat(bridge.statusCode()).as(bridge.body()).isEqualTo(201);
            Optional<Mqtt5Publish> command = Optional.empty();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // The bridge starts within 2 s and its group begins at the topic's end: produce until one arrives.
            try (KafkaProducer<byte[], byte[]> backend = new KafkaProducer<>(kafkaClient(Map.of(
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class)))) {
                while (command.isEmpty() && System.nanoTime() < deadline) {
                    backend.send(new ProducerRecord<>(
                                    commands,
                                    "dev-2".getBytes(StandardCharsets.UTF_8),
                                    "open".getBytes(StandardCharsets.UTF_8)))
                            .get(10, TimeUnit.SECONDS);
                    command = received.receive(2, TimeUnit.SECONDS);
                }
            }
            assertThat(payloadOf(command, prefix + "/dev-2/cmd")).isEqualTo("open");
        } finally {
            publisher.disconnect();
            subscriber.disconnect();
        }
    }

    @Test
    void a_wrong_password_stops_a_node_and_a_router_at_start_naming_the_cause() {
        Map<String, Object> wrong = new HashMap<>(credentials("not-the-password"));
        for (String service : List.of("transport", "routing")) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> {
                        if (service.equals("transport")) {
                            cluster.startTransport("sasl-wrong-node", wrong).close();
                        } else {
                            cluster.startRouter("sasl-wrong-router", wrong).close();
                        }
                    })
                    .as(service)
                    .hasMessageContaining("exited with code")
                    .hasMessageContaining("refused the credentials")
                    .hasMessageContaining("Authentication failed");
            // A JVM start on a busy machine included; the Kafka check itself answers in well under a second.
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as(service).isLessThan(Duration.ofSeconds(60));
        }
    }

    private static String payloadOf(Optional<Mqtt5Publish> publish, String topic) {
        assertThat(publish).as("a message on " + topic).isPresent();
        assertThat(publish.get().getTopic().toString()).isEqualTo(topic);
        return new String(publish.get().getPayloadAsBytes(), StandardCharsets.UTF_8);
    }

    private static HttpResponse<String> send(String path, String body) throws Exception {
        return HTTP.send(
                AdminRequests.to(cluster.sessionApiUrl(), path)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void awaitMappingRule(int expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (int node = 0; node < 2; node++) {
            NodeProbe probe = new NodeProbe(cluster, node);
            while (NodeProbe.sum(probe.scrape(), "tributary_mapping_rules") != expected) {
                assertThat(System.nanoTime())
                        .as("node %d applies the rule", node)
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    /** The first record of a one-partition topic, read with SASL credentials. */
    private static ConsumerRecord<byte[], byte[]> firstRecord(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(kafkaClient(Map.of(
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class)))) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    return r;
                }
            }
            throw new AssertionError("no record in " + topic + " within 20 s");
        }
    }
}
