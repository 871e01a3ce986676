package io.tributary.routing.sys;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * {@code $SYS} figures of this router. Bound from {@code tributary.sys.*} ({@code TRIBUTARY_SYS_INTERVAL}, the same
 * setting as the transport nodes' and session-service's).
 *
 * @param interval how often the router publishes its {@code $SYS/broker/routers/<router>/...} topics; 0 disables them
 */
@Validated
@ConfigurationProperties("tributary.sys")
public record RouterSysProperties(@NotNull Duration interval) {

    @AssertTrue(message = "tributary.sys.interval must be 0 (disabled) or at least 100ms")
    public boolean isIntervalValid() {
        return interval == null || interval.isZero() || interval.toMillis() >= 100;
    }
}
