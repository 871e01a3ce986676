package io.tributary.it.support;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** A plain Kafka consumer, as any backend would use, of what reaches the publish topic from now on. */
public final class PublishTopicTail {

    private PublishTopicTail() {}

    /** Every partition of {@code tributary.publish}, from its end now (committed records only); the caller closes it. */
    public static KafkaConsumer<byte[], byte[]> fromEnd(String bootstrapServers) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed"));
        List<TopicPartition> partitions = consumer.partitionsFor("tributary.publish", Duration.ofSeconds(20)).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        return consumer;
    }
}
