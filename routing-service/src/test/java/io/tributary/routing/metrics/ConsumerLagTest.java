package io.tributary.routing.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

class ConsumerLagTest {

    private static final String GROUP = "consumer-fetch-manager-metrics";

    private static Metric metric(MetricName name, Object value) {
        return new Metric() {
            @Override
            public MetricName metricName() {
                return name;
            }

            @Override
            public Object metricValue() {
                return value;
            }
        };
    }

    private static void put(
            Map<MetricName, Metric> metrics, String name, String group, Map<String, String> tags, Object value) {
        MetricName metricName = new MetricName(name, group, "", tags);
        metrics.put(metricName, metric(metricName, value));
    }

    @Test
    void sums_the_lag_of_each_assigned_partition_only() {
        Map<MetricName, Metric> metrics = new LinkedHashMap<>();
        put(
                metrics,
                "records-lag",
                GROUP,
                Map.of("client-id", "c", "topic", "tributary_publish", "partition", "0"),
                7.0);
        put(
                metrics,
                "records-lag",
                GROUP,
                Map.of("client-id", "c", "topic", "tributary_publish", "partition", "3"),
                5.0);
        put(
                metrics,
                "records-lag",
                GROUP,
                Map.of("client-id", "c", "topic", "tributary_publish", "partition", "4"),
                Double.NaN);
        put(metrics, "records-lag-max", GROUP, Map.of("client-id", "c"), 100.0);
        put(metrics, "records-lag", "other-group", Map.of("partition", "1"), 1000.0);
        put(metrics, "records-lead", GROUP, Map.of("partition", "0"), 50.0);

        assertThat(ConsumerLag.sum(metrics)).isEqualTo(12.0);
    }

    @Test
    void reports_zero_without_a_consumer() {
        ConsumerLag lag = new ConsumerLag();
        assertThat(lag.records()).isZero();
        assertThat(ConsumerLag.sum(Map.of())).isZero();
    }
}
