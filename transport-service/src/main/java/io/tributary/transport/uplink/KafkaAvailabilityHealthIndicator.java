package io.tributary.transport.uplink;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Down while this node cannot store publishes in Kafka (it refuses CONNECTs then), so the readiness probe takes
 * the node out of the load balancer until Kafka answers again. Reads a flag: no Kafka call per probe.
 */
public final class KafkaAvailabilityHealthIndicator implements HealthIndicator {

    private final KafkaAvailability availability;

    public KafkaAvailabilityHealthIndicator(KafkaAvailability availability) {
        this.availability = availability;
    }

    @Override
    public Health health() {
        return availability.unavailable()
                ? Health.down()
                        .withDetail("publishes", "refused: the last produce failed, probing every 2 s")
                        .build()
                : Health.up().build();
    }
}
