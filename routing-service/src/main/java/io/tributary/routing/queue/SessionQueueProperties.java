package io.tributary.routing.queue;

import io.tributary.sessionqueue.QueueFullPolicy;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The session queues routing appends to (Redis).
 *
 * @param redisUrl       Redis holding the queues ({@code redis://host:port})
 * @param commandTimeout longest wait for Redis to answer; a batch whose appends time out is routed again
 * @param limit          most messages one session queue holds
 * @param fullPolicy     which message is dropped when a queue holds {@code limit} messages
 */
@Validated
@ConfigurationProperties("tributary.session-queue")
public record SessionQueueProperties(
        @NotBlank String redisUrl,
        @NotNull @DurationMin(millis = 100) Duration commandTimeout,
        @Min(1) @Max(10_000_000) int limit,
        @NotNull QueueFullPolicy fullPolicy) {

    /** The URL's user information (the Redis password) never reaches a log line or an error. */
    @Override
    public String toString() {
        return "SessionQueueProperties[redisUrl=" + io.tributary.redis.RedisSettings.redacted(redisUrl)
                + ", commandTimeout=" + commandTimeout + ", limit=" + limit + ", fullPolicy=" + fullPolicy + "]";
    }
}
