package io.tributary.session.retained;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/** Retained-message meters; the stored count is re-read periodically by {@link RetainedMaintenance}. */
@Component
public class RetainedMetrics {

    private final AtomicLong stored = new AtomicLong();
    private final Counter updates;
    private final Counter removals;
    private final Counter delivered;
    private final Counter catchUpTimeouts;
    private final Counter capped;

    public RetainedMetrics(MeterRegistry registry) {
        Gauge.builder("tributary.retained.messages", stored, AtomicLong::get)
                .description("Retained messages stored (refreshed from PostgreSQL)")
                .register(registry);
        updates = Counter.builder("tributary.retained.updates")
                .tag("action", "stored")
                .description("Retained publish records applied to the store")
                .register(registry);
        removals = Counter.builder("tributary.retained.updates")
                .tag("action", "deleted")
                .description("Retained publish records applied to the store")
                .register(registry);
        delivered = Counter.builder("tributary.retained.returned")
                .description("Retained messages returned to transport nodes for SUBSCRIBEs")
                .register(registry);
        catchUpTimeouts = Counter.builder("tributary.retained.catchup.timeouts")
                .description("SUBSCRIBEs answered before the retained store caught up with the publish topic")
                .register(registry);
        capped = Counter.builder("tributary.retained.capped")
                .description("SUBSCRIBEs whose retained messages were cut at the configured maximum")
                .register(registry);
    }

    void applied(int storedCount, int deletedCount) {
        updates.increment(storedCount);
        removals.increment(deletedCount);
    }

    void returned(int count) {
        delivered.increment(count);
    }

    void catchUpTimedOut() {
        catchUpTimeouts.increment();
    }

    void capped() {
        capped.increment();
    }

    void resetStored(long count) {
        stored.set(count);
    }
}
