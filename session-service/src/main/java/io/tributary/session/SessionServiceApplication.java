package io.tributary.session;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Session-service: durable MQTT sessions and subscriptions in PostgreSQL, hot presence in Redis, single writer of
 * the subscription feed on Kafka.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class SessionServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(SessionServiceApplication.class, args);
    }
}
