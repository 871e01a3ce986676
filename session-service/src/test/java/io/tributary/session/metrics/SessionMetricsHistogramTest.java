package io.tributary.session.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SessionMetricsHistogramTest {

    @Test
    void produce_latency_is_published_as_prometheus_buckets_that_aggregate_across_replicas() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        SessionMetrics metrics = new SessionMetrics(registry);
        metrics.kafkaProduceLatency().record(Duration.ofMillis(3));

        String scrape = registry.scrape();
        // A histogram_quantile() over sum by (le) of these buckets is a cluster-wide percentile; the per-pod
        // quantile gauges alone could not be combined.
        assertThat(scrape)
                .contains("# TYPE tributary_kafka_produce_latency_seconds histogram")
                .containsPattern("tributary_kafka_produce_latency_seconds_bucket\\{[^}]*le=\"0\\.00[0-9]+\"[^}]*\\} 1");
    }
}
