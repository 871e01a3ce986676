package io.tributary.transport;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** A stateless MQTT front end: decodes MQTT, produces publishes to Kafka, writes deliveries to sockets. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class TransportServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(TransportServiceApplication.class, args);
    }
}
