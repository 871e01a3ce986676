package io.tributary.transport;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.qos2.ExactlyOnceQos2;
import io.tributary.transport.qos2.Qos2MarkerIndex;
import io.tributary.transport.qos2.Qos2Properties;
import io.tributary.transport.qos2.TransactionalUplink;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Exactly-once QoS 2 into Kafka, when on: the transactional uplink and the cluster's PUBREL markers. */
@Configuration(proxyBeanMethods = false)
class Qos2Configuration {

    /** Off ({@code TRIBUTARY_QOS2_EXACTLY_ONCE=false}): a placeholder, so the listener bean always has one. */
    @Bean(destroyMethod = "close")
    Qos2Beans qos2Beans(
            TransportProperties properties,
            Qos2Properties qos2,
            Admin kafkaAdmin,
            TransportMetrics metrics,
            MeterRegistry registry,
            KafkaClients kafkaClients) {
        if (!qos2.exactlyOnce()) {
            return new Qos2Beans(null);
        }
        TransportProperties.Kafka k = properties.kafka();
        Map<String, Object> config = new java.util.HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                k.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                // Its own thread blocks, never an event loop: commitTransaction waits up to max.block.ms, which
                // must cover a commit's round trips, not the event loops' tiny bound.
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                (int) k.deliveryTimeout().toMillis(),
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                (int) k.deliveryTimeout().toMillis(),
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                (int) Math.max(1, Math.min(10_000, k.deliveryTimeout().toMillis())),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.COMPRESSION_TYPE_CONFIG,
                k.compression().name));
        config.putAll(TransactionalUplink.transactionalSettings(properties.nodeId(), qos2.transactionTimeout()));
        TransactionalUplink uplink =
                new TransactionalUplink(properties.nodeId(), () -> kafkaClients.producer(config), metrics);
        Qos2MarkerIndex markers = new Qos2MarkerIndex(kafkaClients, properties.nodeId(), kafkaAdmin);
        io.micrometer.core.instrument.Gauge.builder("tributary.qos2.markers", markers, Qos2MarkerIndex::size)
                .description(
                        "QoS 2 publishes stored and not yet released (PUBREL), cluster-wide, as this node reads them")
                .register(registry);
        uplink.start();
        markers.start();
        return new Qos2Beans(new ExactlyOnceQos2(uplink, markers));
    }

    /** Holder of the optional exactly-once QoS 2 parts, closed with the context. */
    record Qos2Beans(ExactlyOnceQos2 exactlyOnce) implements AutoCloseable {
        @Override
        public void close() throws InterruptedException {
            if (exactlyOnce != null) {
                exactlyOnce.close();
            }
        }
    }
}
