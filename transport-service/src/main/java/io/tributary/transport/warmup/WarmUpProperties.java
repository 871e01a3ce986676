package io.tributary.transport.warmup;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The node's warm-up before it reports ready ({@link WarmUp}). Bound from {@code tributary.transport.warm-up.*}
 * ({@code TRIBUTARY_WARM_UP_*}).
 *
 * @param enabled     run it at all; off, the node is ready as soon as it is registered and Kafka answers
 * @param connections warm-up sessions, one after the other in {@code concurrency} lanes: each connects (MQTT 5 and
 *                    3.1.1 alternately), subscribes, publishes {@code messages} to itself, unsubscribes and
 *                    disconnects
 * @param concurrency warm-up sessions open at the same time
 * @param messages    PUBLISHes per session, QoS 1 and QoS 0 alternately, each delivered back to it
 * @param timeout     the longest the warm-up may hold readiness back; what is left then is abandoned (logged)
 */
@Validated
@ConfigurationProperties("tributary.transport.warm-up")
public record WarmUpProperties(
        boolean enabled,
        @Min(1) @Max(1_000_000) int connections,
        @Min(1) @Max(1_000) int concurrency,
        @Min(0) @Max(1_000) int messages,
        @NotNull Duration timeout) {}
