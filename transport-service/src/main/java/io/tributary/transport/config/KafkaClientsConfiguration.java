package io.tributary.transport.config;

import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import io.tributary.common.kafka.KafkaClientProperties;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.RecordHeaders;

/**
 * The factory of every Kafka client of the node (publish producer, admin, downlink and mapping-rule consumers), with
 * the operator's pass-through properties bound from {@value KafkaClientProperties#PREFIX}: the map is read with
 * Spring's binder (relaxed binding, so {@code TRIBUTARY_KAFKA_PROPERTIES_SASL_MECHANISM} is
 * {@code sasl.mechanism}) and checked when bound, failing start-up on a key the node sets itself.
 */
@Configuration(proxyBeanMethods = false)
public class KafkaClientsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(KafkaClientsConfiguration.class);

    @Bean
    KafkaClients kafkaClients(TransportProperties properties, Environment environment) {
        KafkaClientProperties passThrough = passThrough(environment);
        if (!passThrough.properties().isEmpty()) {
            log.info("Kafka clients get the pass-through properties {}", passThrough.properties().keySet());
        }
        // Before any client exists, so that every record of the process is written in one header format.
        RecordHeaders.useWriteFormat(environment.getProperty(RecordHeaders.FORMAT_PROPERTY));
        return new KafkaClients(properties.kafka().bootstrapServers(), passThrough);
    }

    static KafkaClientProperties passThrough(Environment environment) {
        return new KafkaClientProperties(Binder.get(environment)
                .bind(KafkaClientProperties.PREFIX, Bindable.mapOf(String.class, String.class)).orElse(Map.of()));
    }
}
