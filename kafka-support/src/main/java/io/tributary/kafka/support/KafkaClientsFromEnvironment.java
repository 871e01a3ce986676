package io.tributary.kafka.support;

import io.tributary.common.kafka.KafkaClientProperties;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.RecordHeaders;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Every service's {@link KafkaClients}: where Kafka is, plus the operator's pass-through properties bound from
 * {@value KafkaClientProperties#PREFIX} with Spring's binder (relaxed binding, so
 * {@code TRIBUTARY_KAFKA_PROPERTIES_SASL_MECHANISM} is {@code sasl.mechanism}) and checked when bound, failing
 * start-up on a key the service sets itself; and sets the process's record header format
 * ({@value RecordHeaders#FORMAT_PROPERTY}) before any client exists.
 */
public final class KafkaClientsFromEnvironment {

    private static final Logger log = LoggerFactory.getLogger(KafkaClientsFromEnvironment.class);

    private KafkaClientsFromEnvironment() {}

    public static KafkaClients create(String bootstrapServers, Environment environment) {
        KafkaClientProperties passThrough = passThrough(environment);
        if (!passThrough.properties().isEmpty()) {
            log.info(
                    "Kafka clients get the pass-through properties {}",
                    passThrough.properties().keySet());
        }
        // Before any client exists, so that every record of the process is written in one header format.
        RecordHeaders.useWriteFormat(environment.getProperty(RecordHeaders.FORMAT_PROPERTY));
        return new KafkaClients(bootstrapServers, passThrough);
    }

    static KafkaClientProperties passThrough(Environment environment) {
        return new KafkaClientProperties(Binder.get(environment)
                .bind(KafkaClientProperties.PREFIX, Bindable.mapOf(String.class, String.class))
                .orElse(Map.of()));
    }
}
