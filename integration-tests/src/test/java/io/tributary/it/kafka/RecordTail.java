package io.tributary.it.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A plain Kafka consumer (no group) on every partition of a topic, from the end offsets at the moment it is made:
 * it sees what is produced after, not the history a shared cluster's topic has.
 */
final class RecordTail implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();

    RecordTail(String bootstrap, String topic) {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class));
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(20)).stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
    }

    /** The first record since the tail was made that {@code match} accepts; fails after 20 s. */
    ConsumerRecord<byte[], byte[]> await(Predicate<ConsumerRecord<byte[], byte[]>> match) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            for (ConsumerRecord<byte[], byte[]> r : seen) {
                if (match.test(r)) {
                    return r;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no matching record among " + seen.size() + " within 20 s");
            }
            consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
