package io.tributary.session.presence;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/** Redis (presence) answers PING. Shown as {@code redis} in /actuator/health. */
@Component("redisHealthIndicator")
public class RedisHealthIndicator extends AbstractHealthIndicator {

    private final PresenceStore presence;

    public RedisHealthIndicator(PresenceStore presence) {
        super("Redis health check failed");
        this.presence = presence;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.up().withDetail("ping", presence.ping());
    }
}
