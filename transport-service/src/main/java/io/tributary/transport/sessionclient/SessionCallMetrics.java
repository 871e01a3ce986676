package io.tributary.transport.sessionclient;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The meters of one kind of batch call to session-service: {@code tributary.session.calls} (timer, tags
 * {@code call} and {@code outcome}) and {@code tributary.session.call.requests} (requests per call).
 */
final class SessionCallMetrics {

    private SessionCallMetrics() {}

    static RequestBatcher.CallListener of(MeterRegistry registry, String call) {
        // Histogram buckets so that call latency percentiles aggregate across transport nodes.
        var ok = Timer.builder("tributary.session.calls")
                .tag("call", call)
                .tag("outcome", "ok")
                .description("Batch calls to session-service")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
        var failed = Timer.builder("tributary.session.calls")
                .tag("call", call)
                .tag("outcome", "failed")
                .description("Batch calls to session-service")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
        var size = DistributionSummary.builder("tributary.session.call.requests")
                .tag("call", call)
                .description("Requests per batch call to session-service")
                .serviceLevelObjectives(1, 2, 5, 10, 20, 50, 100, 200, 500)
                .register(registry);
        return (requests, nanos, error) -> {
            (error ? failed : ok).record(nanos, TimeUnit.NANOSECONDS);
            size.record(requests);
        };
    }
}
