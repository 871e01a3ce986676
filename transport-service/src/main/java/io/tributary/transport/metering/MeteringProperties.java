package io.tributary.transport.metering;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Per-tenant metering on this node. Bound from {@code tributary.transport.metering.*}
 * ({@code TRIBUTARY_METERING_INTERVAL}).
 *
 * @param interval how often the node sends its usage deltas (one record per tenant with activity) to
 *        {@code tributary.metering.deltas}: what a node killed -9 has counted but not sent is at most this much
 */
@Validated
@ConfigurationProperties("tributary.transport.metering")
public record MeteringProperties(@NotNull Duration interval) {

    @AssertTrue(message = "tributary.transport.metering.interval must be between 1s and 1h")
    public boolean isIntervalValid() {
        return interval == null
                || (interval.compareTo(Duration.ofSeconds(1)) >= 0 && interval.compareTo(Duration.ofHours(1)) <= 0);
    }
}
