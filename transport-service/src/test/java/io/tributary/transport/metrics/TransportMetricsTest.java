package io.tributary.transport.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TransportMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(registry);

    @Test
    void registers_main_drop_reasons_and_downlink_latency_up_front() {
        for (String reason : TransportMetrics.EAGER_DROP_REASONS) {
            assertThat(registry.get("tributary.deliveries.dropped")
                            .tag("reason", reason)
                            .counter()
                            .count())
                    .isZero();
        }
        metrics.dropped("expired");
        assertThat(registry.get("tributary.deliveries.dropped")
                        .tag("reason", "expired")
                        .counter()
                        .count())
                .isEqualTo(1);

        metrics.downlinkConsumeLatency(25);
        metrics.downlinkConsumeLatency(-3);
        var latency = registry.get("tributary.kafka.consume.latency")
                .tag("topic", "downlink")
                .timer();
        assertThat(latency.count()).isEqualTo(2);
        assertThat(latency.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(25);
    }
}
