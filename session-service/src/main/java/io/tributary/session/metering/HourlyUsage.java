package io.tributary.session.metering;

import java.time.Instant;

/**
 * One tenant's usage in one UTC hour.
 *
 * @param hour              the start of the hour
 * @param messagesIn        PUBLISH packets of the tenant's clients stored by Kafka (QoS 1/2: acknowledged)
 * @param bytesIn           their payload bytes
 * @param messagesOut       PUBLISH packets written to the tenant's clients
 * @param bytesOut          their payload bytes
 * @param connectionSeconds connected clients times time, in seconds
 * @param storedBytes       payload bytes of the tenant's retained messages, as last sampled in the hour
 */
public record HourlyUsage(
        Instant hour,
        long messagesIn,
        long bytesIn,
        long messagesOut,
        long bytesOut,
        long connectionSeconds,
        long storedBytes) {}
