package io.tributary.common.metering;

import java.time.Instant;

/**
 * One tenant's usage in one UTC hour, as far as it is counted: the value of a
 * {@link io.tributary.common.kafka.TopicNames#METERING} record, key {@link MeteringRecords#totalsKey}. The last record
 * of a key wins (the topic is compacted); totals only grow while the hour's deltas arrive, except {@code storedBytes},
 * which is a sample.
 *
 * @param tenant            the tenant id
 * @param hour              the UTC hour (ISO-8601 in JSON, e.g. {@code 2026-11-26T13:00:00Z})
 * @param messagesIn        PUBLISH packets of the tenant's clients stored by Kafka
 * @param bytesIn           their payload bytes
 * @param messagesOut       PUBLISH packets written to the tenant's clients
 * @param bytesOut          their payload bytes
 * @param connectionSeconds connected clients times time, in seconds (rounded down)
 * @param storedBytes       payload bytes of the tenant's retained messages, as last sampled in the hour
 */
public record UsageTotals(
        String tenant,
        Instant hour,
        long messagesIn,
        long bytesIn,
        long messagesOut,
        long bytesOut,
        long connectionSeconds,
        long storedBytes) {}
