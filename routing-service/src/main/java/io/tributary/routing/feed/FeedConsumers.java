package io.tributary.routing.feed;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Creates the two consumers of the routing loop. They are created on the loop's own thread and never shared: a
 * Kafka consumer is not thread-safe.
 */
public final class FeedConsumers {

    private final Map<String, Object> common;
    private final String clientIdPrefix;
    private final String groupId;
    private final int maxPollRecords;

    public FeedConsumers(Map<String, Object> common, String clientIdPrefix, String groupId, int maxPollRecords) {
        this.common = Map.copyOf(common);
        this.clientIdPrefix = clientIdPrefix;
        this.groupId = groupId;
        this.maxPollRecords = maxPollRecords;
    }

    public String groupId() {
        return groupId;
    }

    /**
     * Member of the routers' consumer group on the publish topic. Offsets are committed by hand once a batch's
     * outputs are acknowledged; a brand-new group starts at the earliest offset so that nothing published before the
     * first router started is lost.
     */
    public Consumer<byte[], byte[]> publishConsumer() {
        Map<String, Object> config = base("publish");
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords);
        return new KafkaConsumer<>(config);
    }

    /**
     * Reader of the subscription feed: no group, partitions assigned by hand, always read from the beginning (the
     * topics are compacted, so the beginning is the current state of every subscription).
     */
    public Consumer<byte[], byte[]> subscriptionConsumer() {
        Map<String, Object> config = base("subscriptions");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(config);
    }

    private Map<String, Object> base(String role) {
        Map<String, Object> config = new HashMap<>(common);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientIdPrefix + "-" + role);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return config;
    }
}
