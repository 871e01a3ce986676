package io.tributary.common.subscription;

import io.tributary.common.kafka.Partitioning;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.topic.SharedFilters;
import io.tributary.common.topic.TopicFilters;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Builds the Kafka records of the subscription change feed, so that every producer places them the same way:
 * exact filters on {@link TopicNames#SUBSCRIPTIONS_EXACT} at the partition of the filter (co-partitioned with
 * {@link TopicNames#PUBLISH}), wildcard filters on {@link TopicNames#SUBSCRIPTIONS_WILDCARD} by key. A shared
 * subscription ({@code $share/g/f}) keeps its full filter in key and value but is placed by its inner filter.
 */
public final class SubscriptionRecords {

    private SubscriptionRecords() {}

    /** Record that sets the subscription's current state. */
    public static ProducerRecord<byte[], byte[]> upsert(SubscriptionRecord subscription, int publishPartitions) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                TopicNames.subscriptionsFor(subscription.filter()),
                partition(subscription.filter(), publishPartitions),
                subscription.key(),
                subscription.encode());
        record.headers().add(new RecordHeader(RecordHeaders.EPOCH, RecordHeaders.int64(subscription.epoch())));
        return record;
    }

    /** Tombstone that removes the subscription of {@code clientId} to {@code filter}. */
    public static ProducerRecord<byte[], byte[]> removal(
            String filter, String clientId, long epoch, int publishPartitions) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                TopicNames.subscriptionsFor(filter),
                partition(filter, publishPartitions),
                SubscriptionRecord.key(filter, clientId),
                null);
        record.headers().add(new RecordHeader(RecordHeaders.EPOCH, RecordHeaders.int64(epoch)));
        return record;
    }

    /** Shared filters are placed by their inner filter, the one publishes are matched against. */
    private static Integer partition(String filter, int publishPartitions) {
        String matched = SharedFilters.innerFilter(filter);
        return TopicFilters.hasWildcard(matched) ? null : Partitioning.partitionFor(matched, publishPartitions);
    }
}
