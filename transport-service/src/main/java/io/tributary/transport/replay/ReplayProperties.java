package io.tributary.transport.replay;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Replay of the publish topic's history to an MQTT 5 subscriber that asks for it in its SUBSCRIBE (user property
 * {@code replay-from} or {@code replay-last}). Bound from {@code tributary.transport.replay.*}; application.yml maps
 * {@code TRIBUTARY_REPLAY_*} onto it. A request past a limit is refused with SUBACK reason code 0x97.
 *
 * @param enabled       off: a SUBSCRIBE asking for a replay gets 0x83 for its filters
 * @param maxAge        how far back a replay may reach: {@code replay-from} older than now minus this is refused,
 *                      {@code replay-last} looks no further back
 * @param maxMessages   messages one replay delivers at most: {@code replay-last} above it is refused; a
 *                      {@code replay-from} matching more delivers the newest this many
 * @param maxConcurrent replays a node runs at once (each one Kafka consumer and one thread while it reads);
 *                      a SUBSCRIBE asking for one more is refused
 * @param timeout       a replay that has not read its history by then is abandoned and its client disconnected
 *                      (0x83): the history it asked for could not be delivered whole
 */
@Validated
@ConfigurationProperties("tributary.transport.replay")
public record ReplayProperties(
        boolean enabled,
        @NotNull Duration maxAge,
        @Min(1) @Max(100_000) int maxMessages,
        @Min(1) @Max(64) int maxConcurrent,
        @NotNull Duration timeout) {

    public static ReplayProperties defaults() {
        return new ReplayProperties(true, Duration.ofHours(24), 1000, 4, Duration.ofSeconds(30));
    }

    @AssertTrue(message = "tributary.transport.replay.max-age must be positive")
    public boolean isMaxAgePositive() {
        return maxAge == null || (!maxAge.isNegative() && !maxAge.isZero());
    }

    @AssertTrue(message = "tributary.transport.replay.timeout must be at least 1s")
    public boolean isTimeoutLongEnough() {
        return timeout == null || timeout.compareTo(Duration.ofSeconds(1)) >= 0;
    }
}
