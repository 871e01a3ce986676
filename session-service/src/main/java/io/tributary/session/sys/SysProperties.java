package io.tributary.session.sys;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Cluster-wide {@code $SYS} statistics. Bound from {@code tributary.sys.*} ({@code TRIBUTARY_SYS_INTERVAL}).
 *
 * @param interval how often the cluster-wide {@code $SYS/broker/...} topics are published (by one session-service
 *                 instance); 0 disables them
 */
@Validated
@ConfigurationProperties("tributary.sys")
public record SysProperties(@NotNull Duration interval) {

    @AssertTrue(message = "tributary.sys.interval must be 0 (disabled) or at least 100ms")
    public boolean isIntervalValid() {
        return interval == null || interval.isZero() || interval.toMillis() >= 100;
    }
}
