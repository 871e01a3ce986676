package io.tributary.routing;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The routing service: consumes every MQTT publish from Kafka and forwards it to the downlink topic of each
 * transport node that has a matching online subscriber. Its web server only serves the actuator endpoints.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class RoutingServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(RoutingServiceApplication.class, args);
    }
}
