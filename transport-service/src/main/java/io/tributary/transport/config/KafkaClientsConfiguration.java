package io.tributary.transport.config;

import io.tributary.common.kafka.KafkaClientProperties;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.kafka.support.KafkaClientsFromEnvironment;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The factory of every Kafka client of the node (publish producer, admin, downlink and mapping-rule consumers), with
 * the operator's pass-through properties bound from {@value KafkaClientProperties#PREFIX} as every service binds
 * them ({@link KafkaClientsFromEnvironment}).
 */
@Configuration(proxyBeanMethods = false)
public class KafkaClientsConfiguration {

    @Bean
    KafkaClients kafkaClients(TransportProperties properties, Environment environment) {
        return KafkaClientsFromEnvironment.create(properties.kafka().bootstrapServers(), environment);
    }
}
