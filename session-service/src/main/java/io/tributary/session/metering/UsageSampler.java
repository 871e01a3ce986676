package io.tributary.session.metering;

import io.tributary.common.metering.UsageDelta;
import io.tributary.common.metering.UsageTotals;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Every {@code TRIBUTARY_METERING_SAMPLE_INTERVAL}: samples the tenants' stored bytes (retained payload bytes) into
 * the current hour, publishes the current and previous hours' totals to {@code tributary.metering} again (so an hour
 * whose last delta's record was lost still ends with its totals on the topic) and forgets old per-node bookkeeping.
 * Every session-service instance runs it; the work is idempotent.
 */
@Component
public class UsageSampler implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(UsageSampler.class);

    private final UsageStore store;
    private final TotalsPublisher publisher;
    private final MeteringProperties properties;
    private final TransactionTemplate transactions;
    private final Clock clock;

    public UsageSampler(
            UsageStore store,
            TotalsPublisher publisher,
            MeteringProperties properties,
            TransactionTemplate transactions,
            Clock clock) {
        this.store = store;
        this.publisher = publisher;
        this.properties = properties;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(this::run, properties.sampleInterval());
    }

    public void run() {
        try {
            Instant now = clock.instant();
            Instant hour = UsageDelta.hourOf(now);
            transactions.executeWithoutResult(status -> store.sampleStoredBytes(hour));
            List<UsageTotals> totals = new ArrayList<>(store.totalsOfHour(hour.minus(Duration.ofHours(1))));
            totals.addAll(store.totalsOfHour(hour));
            publisher.publish(totals);
            store.purgeSources(now.minus(properties.sourceRetention()));
        } catch (RuntimeException e) {
            log.warn("Cannot sample the tenants' stored bytes: {}", e.toString());
        }
    }
}
