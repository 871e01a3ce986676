package io.tributary.transport;

import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.TopicLayout;
import io.tributary.common.kafka.TopicNames;
import io.tributary.transport.backpressure.UplinkBudget;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.mapping.MappingRuleFollower;
import io.tributary.transport.mapping.MappingRules;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.uplink.KafkaAvailability;
import io.tributary.transport.uplink.KafkaAvailabilityHealthIndicator;
import io.tributary.transport.uplink.PublishProducer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The Kafka side of PUBLISH: the topics, the one producer and its availability, the uplink budget, mapping rules. */
@Configuration(proxyBeanMethods = false)
class KafkaUplinkConfiguration {

    @Bean
    TopicLayout topicLayout(TransportProperties properties) {
        return properties.kafka().topics();
    }

    /** Creates the shared topics and this node's downlink topic before anything consumes or produces. */
    @Bean(destroyMethod = "close")
    Admin kafkaAdmin(TransportProperties properties, TopicLayout layout, KafkaClients kafkaClients) {
        Admin admin = kafkaClients.admin(
                Map.of(AdminClientConfig.CLIENT_ID_CONFIG, "tributary-transport-admin-" + properties.nodeId()));
        kafkaClients.requireAuthenticated(admin, "transport node " + properties.nodeId(), Duration.ofSeconds(30));
        layout.ensureSharedTopics(admin);
        layout.ensureDownlinkTopic(admin, properties.nodeId());
        return admin;
    }

    @Bean(destroyMethod = "close")
    Producer<byte[], byte[]> publishKafkaProducer(
            TransportProperties properties, Admin kafkaAdmin, TransportMetrics metrics, KafkaClients kafkaClients) {
        TransportProperties.Kafka k = properties.kafka();
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                k.bootstrapServers(),
                ProducerConfig.CLIENT_ID_CONFIG,
                "tributary-transport-" + properties.nodeId(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.LINGER_MS_CONFIG,
                k.lingerMs(),
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                (int) k.maxBlock().toMillis(),
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                (int) k.deliveryTimeout().toMillis(),
                // Kafka requires delivery.timeout.ms >= linger.ms + request.timeout.ms.
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                (int) Math.max(1, Math.min(10_000, k.deliveryTimeout().toMillis() - k.lingerMs())),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class);
        config = new java.util.HashMap<>(config);
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, k.compression().name);
        KafkaProducer<byte[], byte[]> producer = kafkaClients.producer(config);
        metrics.bindKafkaClients(producer);
        warmUp(producer);
        return producer;
    }

    /**
     * Fetches the publish topic's metadata before the listener opens: the first PUBLISH must not wait for it on an
     * event loop. Each attempt is bounded by the (small) max.block.ms, so retry for a while: a busy broker or machine
     * can take longer than one attempt right after start-up.
     */
    private static void warmUp(KafkaProducer<byte[], byte[]> producer) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                producer.partitionsFor(TopicNames.PUBLISH);
                return;
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
                if (System.nanoTime() > deadline) {
                    producer.close(Duration.ZERO);
                    throw new IllegalStateException(
                            "no metadata for " + TopicNames.PUBLISH + " from Kafka within 60 s", e);
                }
            }
        }
    }

    @Bean(destroyMethod = "close")
    KafkaAvailability kafkaAvailability(Admin kafkaAdmin) {
        return new KafkaAvailability(kafkaAdmin);
    }

    @Bean
    PublishProducer publishProducer(
            Producer<byte[], byte[]> publishKafkaProducer,
            TransportMetrics metrics,
            KafkaAvailability kafkaAvailability) {
        return new PublishProducer(publishKafkaProducer, metrics, kafkaAvailability);
    }

    @Bean
    UplinkBudget uplinkBudget(TransportProperties properties, TransportMetrics metrics) {
        return new UplinkBudget(
                properties.kafka().maxPendingBytesPerConnection().toBytes(),
                properties.kafka().maxPendingBytes().toBytes(),
                metrics);
    }

    /** {@code kafka} in /actuator/health and the readiness group. */
    @Bean("kafka")
    KafkaAvailabilityHealthIndicator kafkaAvailabilityHealthIndicator(KafkaAvailability kafkaAvailability) {
        return new KafkaAvailabilityHealthIndicator(kafkaAvailability);
    }

    @Bean
    MappingRules mappingRules(MeterRegistry registry) {
        MappingRules rules = new MappingRules();
        io.micrometer.core.instrument.Gauge.builder("tributary.mapping.rules", rules, MappingRules::size)
                .description("MQTT-to-Kafka mapping rules this node applies")
                .register(registry);
        return rules;
    }

    /** Started here, before the listener bean: the listener never opens with the node's rules missing. */
    @Bean(destroyMethod = "close")
    MappingRuleFollower mappingRuleFollower(
            TransportProperties properties,
            Producer<byte[], byte[]> publishKafkaProducer,
            MappingRules mappingRules,
            KafkaClients kafkaClients) {
        MappingRuleFollower follower =
                new MappingRuleFollower(kafkaClients, properties.nodeId(), publishKafkaProducer, mappingRules);
        follower.start(Duration.ofSeconds(60));
        return follower;
    }
}
