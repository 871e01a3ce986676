package io.tributary.routing.queue;

import io.tributary.sessionqueue.QueueFullPolicy;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The session queues routing appends to (Redis).
 *
 * @param redisUrl       Redis holding the queues ({@code redis://host:port})
 * @param commandTimeout longest wait for Redis to answer; a batch whose appends time out is routed again
 * @param limit          most messages one session queue holds
 * @param limitBytes     most bytes one session queue holds (its entries' topics, payloads, headers): the messages of
 *                       a flood of large publishes for an offline session stop here rather than at {@code limit}
 *                       times the packet size in a Redis every client shares
 * @param fullPolicy     which message is dropped when a new one would take a queue past either limit
 */
@Validated
@ConfigurationProperties("tributary.routing.session-queue")
public record SessionQueueProperties(
        @NotBlank String redisUrl,
        @NotNull @DurationMin(millis = 100) Duration commandTimeout,
        @Min(1) @Max(10_000_000) int limit,
        @NotNull DataSize limitBytes,
        @NotNull QueueFullPolicy fullPolicy) {

    /** The byte budget's range: below 64 KB it is a mistake (a unit left out), above 1 GB a Redis of its own. */
    public static final DataSize MIN_LIMIT_BYTES = DataSize.ofKilobytes(64);

    public static final DataSize MAX_LIMIT_BYTES = DataSize.ofGigabytes(1);

    @AssertTrue(message = "TRIBUTARY_QUEUE_LIMIT_BYTES must be from 64KB to 1GB")
    public boolean isLimitBytesInRange() {
        return limitBytes == null
                || (limitBytes.toBytes() >= MIN_LIMIT_BYTES.toBytes()
                        && limitBytes.toBytes() <= MAX_LIMIT_BYTES.toBytes());
    }

    /** The URL's user information (the Redis password) never reaches a log line or an error. */
    @Override
    public String toString() {
        return "SessionQueueProperties[redisUrl=" + io.tributary.redis.RedisSettings.redacted(redisUrl)
                + ", commandTimeout=" + commandTimeout + ", limit=" + limit + ", limitBytes=" + limitBytes
                + ", fullPolicy="
                + fullPolicy + "]";
    }
}
