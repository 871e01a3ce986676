package io.tributary.common.metering;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * What one transport node counted for one tenant during one metering interval, all of it within one hour: the value
 * of a {@link io.tributary.common.kafka.TopicNames#METERING_DELTAS} record (key = tenant). A node numbers its records
 * from 1 in each incarnation (process start), so {@code (node, incarnation, tenant, sequence)} names a delta exactly
 * and a consumer that sees it twice (a redelivered batch) adds it once.
 *
 * @param tenant            the tenant id
 * @param node              the transport node id
 * @param incarnation       when the node process started (epoch milliseconds): a restarted node numbers afresh
 * @param sequence          this node incarnation's number of the record, increasing per tenant, from 1
 * @param hour              the UTC hour the interval lies in (truncated to the hour)
 * @param messagesIn        PUBLISH packets of the tenant's clients stored by Kafka (QoS 1/2: acknowledged)
 * @param bytesIn           their payload bytes
 * @param messagesOut       PUBLISH packets written to the tenant's clients' sockets
 * @param bytesOut          their payload bytes
 * @param connectionMillis  connected clients of the tenant times time, in milliseconds
 */
public record UsageDelta(
        String tenant,
        String node,
        long incarnation,
        long sequence,
        Instant hour,
        long messagesIn,
        long bytesIn,
        long messagesOut,
        long bytesOut,
        long connectionMillis) {

    public UsageDelta {
        if (tenant == null || node == null || hour == null) {
            throw new IllegalArgumentException("a usage delta needs a tenant, a node and an hour");
        }
        if (!hour.equals(hourOf(hour))) {
            throw new IllegalArgumentException("not a whole hour: " + hour);
        }
        if (sequence < 1 || messagesIn < 0 || bytesIn < 0 || messagesOut < 0 || bytesOut < 0 || connectionMillis < 0) {
            throw new IllegalArgumentException("a usage delta counts from 0 and is numbered from 1");
        }
    }

    /** The UTC hour {@code instant} lies in. */
    public static Instant hourOf(Instant instant) {
        return instant.truncatedTo(ChronoUnit.HOURS);
    }

    /** Whether the delta counts nothing (such a record is never sent). */
    public boolean empty() {
        return messagesIn == 0 && bytesIn == 0 && messagesOut == 0 && bytesOut == 0 && connectionMillis == 0;
    }
}
