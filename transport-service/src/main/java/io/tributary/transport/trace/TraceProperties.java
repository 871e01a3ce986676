package io.tributary.transport.trace;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * W3C trace context on publish records. Bound from {@code tributary.transport.trace.*}
 * ({@code TRIBUTARY_TRACE_GENERATE}).
 *
 * @param generate when a PUBLISH carries no valid {@code traceparent} user property, give its records a new
 *                 {@code traceparent} header (sampled), so every message can be followed through Kafka; off by
 *                 default: a trace id per message is work and bytes only a traced deployment wants
 */
@Validated
@ConfigurationProperties("tributary.transport.trace")
public record TraceProperties(boolean generate) {}
