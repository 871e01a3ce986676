package io.tributary.session.bridge;

import io.tributary.kafka.tracing.HopTracing;
import io.tributary.kafka.tracing.TracingProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spans of session-service's hop of a message: a Kafka-to-MQTT rule's record carrying a {@code traceparent} gets a
 * {@code bridge} span (read from the user's topic to its publish record acknowledged), configured like the other
 * services' spans ({@code TRIBUTARY_TRACING_*}; off by default).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TracingProperties.class)
public class BridgeTracingConfiguration {

    @Bean(destroyMethod = "close")
    HopTracing hopTracing(TracingProperties tracing) {
        return HopTracing.start(tracing, "tributary-session", HopTracing.hostName("session"));
    }
}
