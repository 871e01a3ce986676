package io.tributary.routing.metrics;

import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * How far the router is behind on {@code tributary.publish}: the sum over its assigned partitions of the consumer's
 * own {@code records-lag} metric (log end offset minus position, updated by every fetch). Read when Prometheus
 * scrapes, never per record; the routing loop swaps in the consumer of each new worker.
 */
final class ConsumerLag {

    private static final String FETCH_GROUP = "consumer-fetch-manager-metrics";

    private volatile Consumer<?, ?> consumer;

    void watch(Consumer<?, ?> consumer) {
        this.consumer = consumer;
    }

    void forget(Consumer<?, ?> closed) {
        if (consumer == closed) {
            consumer = null;
        }
    }

    /** Records behind, or 0 before a consumer owns partitions; NaN if the consumer cannot tell (it closed). */
    double records() {
        Consumer<?, ?> c = consumer;
        if (c == null) {
            return 0;
        }
        try {
            return sum(c.metrics());
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Sums the per-partition {@code records-lag} metrics (the per-client {@code records-lag-max} is excluded). */
    static double sum(Map<MetricName, ? extends Metric> metrics) {
        double total = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            MetricName name = e.getKey();
            if ("records-lag".equals(name.name())
                    && FETCH_GROUP.equals(name.group())
                    && name.tags().containsKey("partition")
                    && e.getValue().metricValue() instanceof Number n
                    && !Double.isNaN(n.doubleValue())) {
                total += n.doubleValue();
            }
        }
        return total;
    }
}
