package io.tributary.session.metering;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Metering in session-service. Bound from {@code tributary.session.metering.*}.
 *
 * @param consumerGroup  consumer group of the consumer that adds the nodes' deltas into {@code tenant_usage}
 * @param sampleInterval how often the tenants' stored bytes are sampled into the current hour and the current and
 *                       previous hours' totals are published again to {@code tributary.metering}
 * @param maxQueryRange  longest range {@code GET /api/v1/tenants/{id}/usage} answers (400 beyond)
 * @param sourceRetention how long the per-node-incarnation bookkeeping of added deltas is kept after its last delta
 */
@Validated
@ConfigurationProperties("tributary.session.metering")
public record MeteringProperties(
        @NotBlank String consumerGroup,
        @NotNull Duration sampleInterval,
        @NotNull Duration maxQueryRange,
        @NotNull Duration sourceRetention) {

    @AssertTrue(message = "tributary.session.metering.sample-interval must be between 1s and 1h")
    public boolean isSampleIntervalValid() {
        return sampleInterval == null
                || (sampleInterval.compareTo(Duration.ofSeconds(1)) >= 0
                        && sampleInterval.compareTo(Duration.ofHours(1)) <= 0);
    }

    @AssertTrue(message = "tributary.session.metering.max-query-range must be whole hours, at least 1h")
    public boolean isMaxQueryRangeValid() {
        return maxQueryRange == null
                || (maxQueryRange.compareTo(Duration.ofHours(1)) >= 0
                        && maxQueryRange.toMinutesPart() == 0
                        && maxQueryRange.toSecondsPart() == 0);
    }

    @AssertTrue(message = "tributary.session.metering.source-retention must be at least 1h")
    public boolean isSourceRetentionValid() {
        return sourceRetention == null || sourceRetention.compareTo(Duration.ofHours(1)) >= 0;
    }
}
