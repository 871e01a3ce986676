package io.tributary.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
 * A plain Kafka consumer (no group, read_committed) on every partition of a topic, from the end offsets at the moment
 * it is made: it sees what is produced after, not the history a shared cluster's topic has, and of transactions only
 * what was committed.
 */
public final class RecordTail implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();

    public RecordTail(String bootstrap, String topic) {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
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
    public ConsumerRecord<byte[], byte[]> await(Predicate<ConsumerRecord<byte[], byte[]>> match) {
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

    /** Everything seen until a record with key {@code last} (any record when null); fails after 20 s. */
    public List<ConsumerRecord<byte[], byte[]>> until(String last) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (seen.stream().noneMatch(r -> last == null || key(r).equals(last))) {
            assertThat(System.nanoTime() < deadline)
                    .as("a record with key %s within 20 s", last)
                    .isTrue();
            consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
        }
        return List.copyOf(seen);
    }

    /** The records with key {@code key} once two seconds passed with nothing new. */
    public List<ConsumerRecord<byte[], byte[]>> settle(String key) {
        until(key);
        long quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < quietUntil) {
            consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
        }
        return seen.stream().filter(r -> key(r).equals(key)).toList();
    }

    /** Every record read so far. */
    public List<ConsumerRecord<byte[], byte[]>> seen() {
        return List.copyOf(seen);
    }

    private static String key(ConsumerRecord<byte[], byte[]> r) {
        return r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
