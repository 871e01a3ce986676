package io.tributary.session.kafka;

import io.tributary.common.kafka.KafkaClientProperties;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.kafka.support.KafkaClientsFromEnvironment;
import io.tributary.session.config.SessionServiceProperties;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The one producer and the one admin client of this process, and the {@link KafkaClients} that makes them and the
 * consumers (retained messages, Kafka-to-MQTT rules), with the operator's pass-through properties bound from
 * {@value KafkaClientProperties#PREFIX} as every service binds them ({@link KafkaClientsFromEnvironment}).
 */
@Configuration(proxyBeanMethods = false)
public class KafkaClientsConfiguration {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    @Bean
    KafkaClients kafkaClients(SessionServiceProperties properties, Environment environment) {
        return KafkaClientsFromEnvironment.create(properties.kafka().bootstrapServers(), environment);
    }

    @Bean(destroyMethod = "close")
    Producer<byte[], byte[]> feedProducer(
            SessionServiceProperties properties,
            io.tributary.session.metrics.SessionMetrics metrics,
            KafkaClients clients) {
        SessionServiceProperties.Kafka kafka = properties.kafka();
        long ackTimeoutMs = kafka.ackTimeout().toMillis();
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.CLIENT_ID_CONFIG, kafka.group().clientId("session-service", "feed"));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // Requests hold a row lock while they wait for acks: never wait for a batch to fill.
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, kafka.maxBlock().toMillis());
        // The producer gives up on a record no later than the request does (delivery >= linger + request timeout).
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(1000, ackTimeoutMs / 2));
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.max(1000, ackTimeoutMs));
        // The default close waits forever for unsent records; with Kafka gone that would hang shutdown.
        KafkaProducer<byte[], byte[]> producer = clients.producer(config, CLOSE_TIMEOUT);
        metrics.bindKafkaClients(producer);
        return producer;
    }

    @Bean(destroyMethod = "close")
    Admin kafkaAdmin(SessionServiceProperties properties, KafkaClients clients) {
        SessionServiceProperties.Kafka kafka = properties.kafka();
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, kafka.group().clientId("session-service", "admin"));
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int)
                Math.max(1000, kafka.ackTimeout().toMillis() / 2));
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int)
                Math.max(1000, kafka.ackTimeout().toMillis()));
        Admin admin = clients.admin(config);
        clients.requireAuthenticated(admin, "session-service", kafka.ackTimeout());
        return admin;
    }
}
