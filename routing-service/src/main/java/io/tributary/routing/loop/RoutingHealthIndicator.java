package io.tributary.routing.loop;

import io.tributary.routing.index.SubscriptionIndex;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.stereotype.Component;

/**
 * Health of the routing loop. A router that owns no partition is healthy (the group may have more members than
 * partitions); it is down only while Kafka operations fail, and out of service while it starts.
 */
@Component("routing")
public class RoutingHealthIndicator implements HealthIndicator {

    private final RoutingStatus status;
    private final SubscriptionIndex index;

    public RoutingHealthIndicator(RoutingStatus status, SubscriptionIndex index) {
        this.status = status;
        this.index = index;
    }

    @Override
    public Health health() {
        RoutingStatus.Snapshot s = status.snapshot();
        Status state = switch (s.state()) {
            case RUNNING -> Status.UP;
            case STARTING -> Status.OUT_OF_SERVICE;
            case RETRYING, STOPPED -> Status.DOWN;
        };
        Health.Builder health = Health.status(state)
                .withDetail("state", s.state().name())
                .withDetail("since", s.since().toString())
                .withDetail("ownedPartitions", index.ownedPartitions())
                .withDetail("exactFilters", index.exactFilterCount())
                .withDetail("wildcardFilters", index.wildcardFilterCount())
                .withDetail("offlineSubscriptions", index.offlineCount())
                .withDetail("batchesRouted", s.batchesRouted());
        if (s.lastBatchAt() != null) {
            health.withDetail("lastBatchAt", s.lastBatchAt().toString());
        }
        if (s.lastError() != null) {
            health.withDetail("lastError", s.lastError())
                    .withDetail("lastErrorAt", s.lastErrorAt().toString());
        }
        return health.build();
    }
}
