package io.tributary.transport.warmup;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** {@code warmUp}: out of service while the node warms up ({@link WarmUp}), up once it is done or when it is off. */
public final class WarmUpHealthIndicator implements HealthIndicator {

    private final WarmUp warmUp;

    public WarmUpHealthIndicator(WarmUp warmUp) {
        this.warmUp = warmUp;
    }

    @Override
    public Health health() {
        WarmUp.Status s = warmUp.status();
        Health.Builder health = s.done() ? Health.up() : Health.outOfService();
        health.withDetail("sessions", s.sessions())
                .withDetail("completed", s.completed())
                .withDetail("failed", s.failed())
                .withDetail("millis", s.millis());
        if (s.firstFailure() != null) {
            health.withDetail("firstFailure", s.firstFailure());
        }
        return health.build();
    }
}
