package io.tributary.routing.loop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.TopicLayout;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.common.subscription.SubscriptionRecords;
import io.tributary.devstack.kafka.EmbeddedKafka;
import io.tributary.devstack.net.Ports;
import io.tributary.routing.RoutingServiceApplication;
import io.tributary.routing.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** The router starts before Kafka, waits for it without exiting, then routes once Kafka is there. */
class RoutingWithoutKafkaTest {

    private static final int PUBLISH_PARTITIONS = 2;
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void router_outlives_a_missing_kafka_and_routes_once_it_is_up(@TempDir Path kafkaDir) throws Exception {
        int port = Ports.freePort();
        String bootstrap = "127.0.0.1:" + port;
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(RoutingServiceApplication.class)
                .run(
                        "--server.port=0",
                        "--tributary.kafka.bootstrap-servers=" + bootstrap,
                        "--tributary.kafka.topics.publish-partitions=" + PUBLISH_PARTITIONS,
                        "--tributary.kafka.topics.wildcard-partitions=1",
                        "--tributary.kafka.topics.downlink-partitions=1",
                        "--tributary.kafka.request-timeout=1s",
                        "--tributary.routing.retry-backoff-max=500ms",
                        "--tributary.routing.group-id=routing-late-kafka")) {
            RoutingStatus status = app.getBean(RoutingStatus.class);
            awaitState(status, RoutingStatus.State.RETRYING);
            assertThat(status.snapshot().lastError()).isNotBlank();
            assertThat(app.getBean(RoutingLoop.class).isRunning()).isTrue();

            try (EmbeddedKafka kafka = EmbeddedKafka.start(kafkaDir, port, 0);
                    Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
                    KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
                awaitState(status, RoutingStatus.State.RUNNING);
                TopicLayout.singleBroker(PUBLISH_PARTITIONS, 1, 1, java.time.Duration.ofHours(1))
                        .ensureDownlinkTopic(admin, "late");
                producer.send(SubscriptionRecords.upsert(
                                new SubscriptionRecord("c1", "late/topic", "late", 1, false, false, 0, 1),
                                PUBLISH_PARTITIONS))
                        .get(10, TimeUnit.SECONDS);
                producer.send(new ProducerRecord<>(TopicNames.PUBLISH, bytes("late/topic"), bytes("hello")))
                        .get(10, TimeUnit.SECONDS);

                ConsumerRecord<byte[], byte[]> delivery = awaitOneDelivery(bootstrap, TopicNames.downlink("late"));

                assertThat(new String(delivery.value(), StandardCharsets.UTF_8)).isEqualTo("hello");
            }
            // Kafka is gone again when the context closes: stopping must still end the loop promptly.
        }
    }

    private static void awaitState(RoutingStatus status, RoutingStatus.State state) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (status.snapshot().state() != state && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(status.snapshot().state()).isEqualTo(state);
    }

    private static ConsumerRecord<byte[], byte[]> awaitOneDelivery(String bootstrap, String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class))) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(Set.of(tp));
            consumer.seekToBeginning(Set.of(tp));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < deadline) {
                List<ConsumerRecord<byte[], byte[]>> records =
                        consumer.poll(Duration.ofMillis(100)).records(tp);
                if (!records.isEmpty()) {
                    return records.get(0);
                }
            }
            throw new AssertionError("nothing delivered on " + topic + " within " + WAIT);
        }
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        return TestKafka.producer(bootstrap);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
