package io.tributary.session.retained;

import io.tributary.session.config.SessionServiceProperties;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/** Periodically deletes expired retained messages (they are never returned anyway) and re-counts the rest. */
@Component
public class RetainedMaintenance implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(RetainedMaintenance.class);

    private final RetainedStore store;
    private final RetainedMetrics metrics;
    private final SessionServiceProperties properties;
    private final Clock clock;

    public RetainedMaintenance(
            RetainedStore store, RetainedMetrics metrics, SessionServiceProperties properties, Clock clock) {
        this.store = store;
        this.metrics = metrics;
        this.properties = properties;
        this.clock = clock;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(this::run, properties.retained().countRefresh());
    }

    public void run() {
        try {
            int purged = store.purgeExpired(clock.instant());
            if (purged > 0) {
                log.debug("Purged {} expired retained messages", purged);
            }
            metrics.resetStored(store.count(""));
        } catch (RuntimeException e) {
            log.warn("Cannot refresh the retained-messages gauge: {}", e.toString());
        }
    }
}
