package io.tributary.session.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tributary.session.config.SessionServiceProperties;

/** The one producer and the one admin client of this process. */
@Configuration(proxyBeanMethods = false)
public class KafkaClientsConfiguration {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    @Bean(destroyMethod = "close")
    Producer<byte[], byte[]> feedProducer(SessionServiceProperties properties,
            io.tributary.session.metrics.SessionMetrics metrics) {
        SessionServiceProperties.Kafka kafka = properties.kafka();
        long ackTimeoutMs = kafka.ackTimeout().toMillis();
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, kafka.group().clientId("session-service", "feed"));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // Requests hold a row lock while they wait for acks: never wait for a batch to fill.
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, kafka.maxBlock().toMillis());
        // The producer gives up on a record no later than the request does (delivery >= linger + request timeout).
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(1000, ackTimeoutMs / 2));
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.max(1000, ackTimeoutMs));
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config) {
            // The default close waits forever for unsent records; with Kafka gone that would hang shutdown.
            @Override
            public void close() {
                close(CLOSE_TIMEOUT);
            }
        };
        metrics.bindKafkaClients(producer);
        return producer;
    }

    @Bean(destroyMethod = "close")
    Admin kafkaAdmin(SessionServiceProperties properties) {
        SessionServiceProperties.Kafka kafka = properties.kafka();
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, kafka.group().clientId("session-service", "admin"));
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(1000, kafka.ackTimeout().toMillis() / 2));
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.max(1000, kafka.ackTimeout().toMillis()));
        return Admin.create(config);
    }
}
