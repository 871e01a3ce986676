package io.tributary.devstack.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaBrokerProcessTest {

    private static final String TOPIC = "devstack.crash-test";

    @TempDir
    Path dir;

    private KafkaBrokerProcess kafka;

    @AfterEach
    void stopBroker() {
        if (kafka != null) {
            kafka.stop();
        }
    }

    @Test
    void recordWrittenBeforeSigkillIsReadAfterRestartOnTheSameDataDirAndPorts() throws Exception {
        kafka = KafkaBrokerProcess.builder(dir.resolve("kafka"))
                .logFile(dir.resolve("kafka.log"))
                .build();
        kafka.start();
        long firstPid = kafka.pid().orElseThrow();
        String bootstrap = kafka.bootstrapServers();

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        RecordMetadata written = produce(bootstrap, "client-1", "before the crash");
        assertThat(consumeAll(bootstrap)).containsExactly("client-1=before the crash");

        kafka.kill();
        assertThat(kafka.isAlive()).isFalse();
        assertThat(ProcessHandle.of(firstPid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();

        kafka.start();
        assertThat(kafka.pid().orElseThrow()).isNotEqualTo(firstPid);
        assertThat(kafka.bootstrapServers()).isEqualTo(bootstrap);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains(TOPIC);
        }
        assertThat(consumeAll(bootstrap)).containsExactly("client-1=before the crash");
        assertThat(produce(bootstrap, "client-2", "after the restart").offset()).isEqualTo(written.offset() + 1);
    }

    private static RecordMetadata produce(String bootstrap, String key, String value) throws Exception {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            return producer.send(new ProducerRecord<>(TOPIC, key, value)).get(30, TimeUnit.SECONDS);
        }
    }

    /** Reads the topic from the start with a fresh group until a poll returns nothing more. */
    private static List<String> consumeAll(String bootstrap) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG,
                "devstack-test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(Set.of(TOPIC));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    values.add(record.key() + "=" + record.value());
                }
            }
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                values.add(record.key() + "=" + record.value());
            }
        }
        return values;
    }
}
