package io.tributary.kafka.support;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;

/** Kafka's own client metrics as Micrometer meters, the same way in every service. */
public final class KafkaClientMeters {

    private KafkaClientMeters() {}

    /**
     * Binds the request and fetch rates, batch sizes, records lag and rebalances of each producer or consumer to
     * {@code registry}, tagged with the client id; closing the result removes them, when the clients are closed.
     */
    public static AutoCloseable bind(MeterRegistry registry, Object... clients) {
        List<KafkaClientMetrics> bound = new ArrayList<>();
        for (Object client : clients) {
            KafkaClientMetrics metrics;
            if (client instanceof Producer<?, ?> producer) {
                metrics = new KafkaClientMetrics(producer);
            } else if (client instanceof Consumer<?, ?> consumer) {
                metrics = new KafkaClientMetrics(consumer);
            } else {
                throw new IllegalArgumentException("not a Kafka producer or consumer: " + client);
            }
            metrics.bindTo(registry);
            bound.add(metrics);
        }
        return () -> bound.forEach(KafkaClientMetrics::close);
    }
}
