package io.tributary.kafka.tracing;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Spans per hop, exported with OTLP over HTTP. Bound from {@code tributary.tracing.*} ({@code TRIBUTARY_TRACING_*}).
 *
 * @param enabled        record and export spans; off by default, and then nothing of OpenTelemetry is created
 * @param endpoint       the OTLP/HTTP traces endpoint (a collector's {@code /v1/traces}); required when enabled, and
 *                       without a default: a collector on localhost fits a developer machine only
 * @param samplingRatio  the share of new traces (started by the node, see {@code TRIBUTARY_TRACE_GENERATE}) that are
 *                       recorded; a hop of a trace that arrives in a {@code traceparent} follows its sampled flag
 * @param exportInterval how long ended spans wait at most before the exporter thread sends them
 */
@Validated
@ConfigurationProperties("tributary.tracing")
public record TracingProperties(
        boolean enabled,
        String endpoint,
        @DecimalMin("0.0") @DecimalMax("1.0") double samplingRatio,
        @NotNull Duration exportInterval) {

    public static final TracingProperties OFF = new TracingProperties(false, "", 1.0, Duration.ofSeconds(5));

    /** Fails the start of a service whose tracing is on with nowhere to send the spans. */
    public TracingProperties {
        if (enabled && (endpoint == null || !(endpoint.startsWith("http://") || endpoint.startsWith("https://")))) {
            throw new IllegalArgumentException("TRIBUTARY_TRACING_ENABLED=true needs TRIBUTARY_TRACING_ENDPOINT, the"
                    + " OTLP/HTTP traces URL of a collector (http(s)://host:4318/v1/traces), not '" + endpoint + "'");
        }
    }
}
