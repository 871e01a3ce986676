package io.tributary.transport.liveness;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Out of service until session-service has recorded this node's incarnation: before that, CONNECTs are refused.
 * Once registered the node stays up even while heartbeats fail (it is session-service that is unhealthy then).
 */
public final class NodeRegistrationHealthIndicator implements HealthIndicator {

    private final NodeHeartbeat heartbeat;

    public NodeRegistrationHealthIndicator(NodeHeartbeat heartbeat) {
        this.heartbeat = heartbeat;
    }

    @Override
    public Health health() {
        Health.Builder health = heartbeat.registered() ? Health.up() : Health.outOfService();
        health.withDetail("incarnation", heartbeat.incarnation());
        if (heartbeat.lastSuccess() != null) {
            health.withDetail("lastHeartbeat", heartbeat.lastSuccess().toString());
        }
        if (heartbeat.lastFailure() != null) {
            health.withDetail("lastFailure", heartbeat.lastFailure());
        }
        return health.build();
    }
}
