package io.tributary.it.kafka;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.common.kafka.TopicNames;
import io.tributary.it.support.EmbeddedEngines;
import io.tributary.it.support.ShippedKafkaAcls;
import io.tributary.it.support.TributaryCluster;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kafka as the deployments ship it (issue 34): SASL/SCRAM-SHA-512 with a user per service and KRaft's
 * StandardAuthorizer with {@code allow.everyone.if.no.acl.found=false}, on exactly the ACLs of deploy/kafka/acls.conf
 * ({@link ShippedKafkaAcls}); each service gets its login as the deployments give it, a JAAS line naming its password
 * as {@code ${KAFKA_<SERVICE>_PASSWORD}} through the pass-through {@code TRIBUTARY_KAFKA_PROPERTIES_*}. The cluster
 * works end to end on those ACLs (a missing one stops a service at start-up or loses the message), and they give no
 * more than each service needs: the transport's credentials are refused a topic it does not write and another
 * service's group, a user without ACLs and an unauthenticated client get nothing.
 */
class KafkaAclTest {

    private static final Map<String, String> PASSWORDS = Map.of(
            "transport", "it-transport-" + UUID.randomUUID(),
            "routing", "it-routing-" + UUID.randomUUID(),
            "session", "it-session-" + UUID.randomUUID());
    /** A PLAIN user of the test listener with no ACL at all. */
    private static final String NOBODY = "nobody";

    private static final String NOBODY_PASSWORD = "it-nobody-" + UUID.randomUUID();

    private static EmbeddedEngines engines;
    private static TributaryCluster cluster;
    private static Path logs;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Paths.get("target", "it-acl-" + System.currentTimeMillis()).toAbsolutePath();
        logs = Files.createDirectories(dir.resolve("logs"));
        engines = EmbeddedEngines.startWithKafkaAcls(dir, dir.resolve("logs"), Map.of(NOBODY, NOBODY_PASSWORD));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", engines.kafkaSuperUserBootstrapServers()))) {
            // What deploy/kafka/setup-kafka.sh does with kafka-configs.sh and kafka-acls.sh.
            admin.alterUserScramCredentials(PASSWORDS.entrySet().stream()
                            .map(e -> (org.apache.kafka.clients.admin.UserScramCredentialAlteration)
                                    new UserScramCredentialUpsertion(
                                            e.getKey(),
                                            new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192),
                                            e.getValue()))
                            .toList())
                    .all()
                    .get(20, TimeUnit.SECONDS);
            admin.createAcls(ShippedKafkaAcls.bindings()).all().get(20, TimeUnit.SECONDS);
        }
        Map<String, Map<String, String>> byService = new HashMap<>();
        PASSWORDS.forEach((user, password) -> {
            String variable = "KAFKA_" + user.toUpperCase(java.util.Locale.ROOT) + "_PASSWORD";
            byService.put(
                    user,
                    Map.of(
                            variable,
                            password,
                            "TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG",
                            "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                                    + "\" password=\"${" + variable + "}\";"));
        });
        cluster = TributaryCluster.start(
                dir,
                engines,
                Map.of(
                        "TRIBUTARY_KAFKA_PROPERTIES_SECURITY_PROTOCOL", "SASL_PLAINTEXT",
                        "TRIBUTARY_KAFKA_PROPERTIES_SASL_MECHANISM", "SCRAM-SHA-512"),
                byService);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.stop();
        }
    }

    @Test
    void the_cluster_delivers_and_writes_tributary_publish_on_the_shipped_acls() throws Exception {
        String prefix = id("acl");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("acl-sub"));
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("acl-pub"));
        subscriber.connect();
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(prefix + "/#")
                    .qos(MqttQos.EXACTLY_ONCE)
                    .send();
            // QoS 1: the publish producer; QoS 2: the node's transactional producer (tributary-qos2-<node>) and
            // its markers; both through routing's group and the downlink topics.
            for (MqttQos qos : List.of(MqttQos.AT_LEAST_ONCE, MqttQos.EXACTLY_ONCE)) {
                String topic = prefix + "/" + qos.getCode();
                publisher
                        .publishWith()
                        .topic(topic)
                        .payload((prefix + " on acls " + qos).getBytes(StandardCharsets.UTF_8))
                        .qos(qos)
                        .send();
                Optional<Mqtt5Publish> got = received.receive(20, TimeUnit.SECONDS);
                assertThat(got)
                        .as("delivery of the QoS %d publish", qos.getCode())
                        .isPresent();
                assertThat(got.get().getTopic().toString()).isEqualTo(topic);
                assertThat(new String(got.get().getPayloadAsBytes(), StandardCharsets.UTF_8))
                        .isEqualTo(prefix + " on acls " + qos);
                assertThat(publishRecordWith((prefix + " on acls " + qos).getBytes(StandardCharsets.UTF_8)))
                        .as("%s in %s", topic, TopicNames.PUBLISH)
                        .isTrue();
            }
        } finally {
            publisher.disconnect();
            subscriber.disconnect();
        }
        // Everything else a service writes or reads meanwhile ($SYS figures every second, usage deltas, retained
        // messages, heartbeats) is allowed too: a refused request is logged with Kafka's exception.
        Thread.sleep(3 * TributaryCluster.SYS_INTERVAL.toMillis() + TributaryCluster.METERING_INTERVAL.toMillis());
        try (var files = Files.list(logs)) {
            for (Path log : files.filter(f -> !f.getFileName().toString().startsWith("kafka"))
                    .toList()) {
                assertThat(Files.readAllLines(log))
                        .as("%s: every Kafka request of the service is allowed by the shipped ACLs", log.getFileName())
                        .noneMatch(line -> line.contains("AuthorizationException"));
            }
        }
    }

    @Test
    void the_transports_credentials_are_refused_a_topic_it_does_not_write_and_another_services_group() {
        Map<String, Object> transport = scram("transport", PASSWORDS.get("transport"));
        // Only session-service writes subscriptions: a transport that could would subscribe anybody to anything.
        try (KafkaProducer<byte[], byte[]> producer = producer(transport)) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(
                                    TopicNames.SUBSCRIPTIONS_EXACT, new byte[] {1}, new byte[] {1}))
                            .get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        // Routing's group: joining it would take partitions of tributary.publish from the routers.
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(transport, "tributary-routing")) {
            consumer.subscribe(List.of(TopicNames.PUBLISH));
            assertThatThrownBy(() -> pollFor(consumer, Duration.ofSeconds(20)))
                    .isInstanceOf(GroupAuthorizationException.class);
        }
        // The usage deltas are the transport's to write, session-service's to read.
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(transport, null)) {
            consumer.assign(List.of(new TopicPartition(TopicNames.METERING_DELTAS, 0)));
            consumer.seekToBeginning(consumer.assignment());
            assertThatThrownBy(() -> pollFor(consumer, Duration.ofSeconds(20)))
                    .isInstanceOf(TopicAuthorizationException.class);
        }
        // No topic outside tributary.* (the prefix it may create downlink topics under).
        try (Admin admin = Admin.create(transport)) {
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic(id("it-acl-other"), 1, (short) 1)))
                            .all()
                            .get(20, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void a_user_without_acls_a_wrong_password_and_an_unauthenticated_client_are_refused() {
        // Authenticated but granted nothing: allow.everyone.if.no.acl.found=false.
        try (KafkaProducer<byte[], byte[]> producer = producer(plain(NOBODY, NOBODY_PASSWORD))) {
            assertThatThrownBy(() -> producer.send(
                                    new ProducerRecord<>(TopicNames.PUBLISH, new byte[] {1}, new byte[] {1}))
                            .get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(scram("transport", "not-the-password"))) {
            assertThatThrownBy(() -> producer.send(
                                    new ProducerRecord<>(TopicNames.PUBLISH, new byte[] {1}, new byte[] {1}))
                            .get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
        // No SASL at all: the listener answers nothing before an authentication (the broker drops the connection).
        Map<String, Object> anonymous = new HashMap<>();
        anonymous.put("bootstrap.servers", cluster.kafkaBootstrapServers());
        anonymous.put("request.timeout.ms", 3000);
        anonymous.put("default.api.timeout.ms", 5000);
        try (Admin admin = Admin.create(anonymous)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
        }
    }

    /** Whether tributary.publish holds a record with this payload (read by the super user). */
    private static boolean publishRecordWith(byte[] payload) {
        Map<String, Object> config = new HashMap<>();
        config.put("bootstrap.servers", engines.kafkaSuperUserBootstrapServers());
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(config, null)) {
            List<TopicPartition> partitions = consumer.partitionsFor(TopicNames.PUBLISH).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (java.util.Arrays.equals(r.value(), payload)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    private static void pollFor(KafkaConsumer<byte[], byte[]> consumer, Duration duration) {
        long deadline = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(500));
        }
    }

    private static Map<String, Object> scram(String user, String password) {
        Map<String, Object> config = new HashMap<>();
        config.put("bootstrap.servers", cluster.kafkaBootstrapServers());
        config.put("security.protocol", "SASL_PLAINTEXT");
        config.put("sasl.mechanism", "SCRAM-SHA-512");
        config.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" password=\""
                        + password + "\";");
        return config;
    }

    private static Map<String, Object> plain(String user, String password) {
        Map<String, Object> config = new HashMap<>();
        config.put("bootstrap.servers", cluster.kafkaBootstrapServers());
        config.put("security.protocol", "SASL_PLAINTEXT");
        config.put("sasl.mechanism", "PLAIN");
        config.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user + "\" password=\""
                        + password + "\";");
        return config;
    }

    private static KafkaProducer<byte[], byte[]> producer(Map<String, Object> base) {
        Map<String, Object> config = new HashMap<>(base);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        // Without idempotence the producer asks for no cluster right first: the refusal is the topic's.
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 15_000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        return new KafkaProducer<>(config);
    }

    private static KafkaConsumer<byte[], byte[]> consumer(Map<String, Object> base, String group) {
        Map<String, Object> config = new HashMap<>(base);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        if (group != null) {
            config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        return new KafkaConsumer<>(config);
    }
}
