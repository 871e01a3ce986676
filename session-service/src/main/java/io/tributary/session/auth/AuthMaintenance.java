package io.tributary.session.auth;

import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/** Says at start-up when anonymous access is on, and purges old rows of failed authentications. */
@Component
public class AuthMaintenance implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(AuthMaintenance.class);

    /** How often the row cap is checked: a flood between two purges by age is cut back within a minute. */
    private static final java.time.Duration CAP_CHECK_INTERVAL = java.time.Duration.ofMinutes(1);

    private final AuthFailureStore failures;
    private final AuthProperties properties;
    private final Clock clock;

    public AuthMaintenance(AuthFailureStore failures, AuthProperties properties, Clock clock) {
        this.failures = failures;
        this.properties = properties;
        this.clock = clock;
    }

    @EventListener(ApplicationReadyEvent.class)
    public void warnIfAnonymous() {
        if (properties.anonymous() && properties.anonymousAclOrNone().configured()) {
            log.warn(
                    "*** ANONYMOUS MQTT ACCESS IS ENABLED (TRIBUTARY_AUTH_ANONYMOUS=true): clients without "
                            + "credentials may connect, held to the anonymous ACL (publish {}, subscribe {}). ***",
                    properties.anonymousAcl().publish(),
                    properties.anonymousAcl().subscribe());
        } else if (properties.anonymous()) {
            // One line, loud on purpose: fine for the quick start, a hole anywhere else.
            log.warn(
                    "*** ANONYMOUS MQTT ACCESS IS ENABLED (TRIBUTARY_AUTH_ANONYMOUS=true): clients without "
                            + "credentials may connect, publish and subscribe to everything. Never run production like this. ***");
        }
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(this::purge, properties.failurePurgeInterval());
        registrar.addFixedDelayTask(this::trim, CAP_CHECK_INTERVAL);
    }

    /** Keeps the table at {@code failureMaxRows}, the most recent rows. */
    public void trim() {
        try {
            int trimmed = failures.keepNewest(properties.failureMaxRows());
            if (trimmed > 0) {
                log.warn(
                        "Failed authentications over TRIBUTARY_AUTH_FAILURE_MAX_ROWS ({} rows): the {} oldest removed",
                        properties.failureMaxRows(),
                        trimmed);
            }
        } catch (RuntimeException e) {
            log.warn("Cannot trim failed authentications: {}", e.toString());
        }
    }

    public void purge() {
        try {
            int purged = failures.purgeOlderThan(clock.instant().minus(properties.failureRetention()));
            if (purged > 0) {
                log.debug("Purged {} rows of failed authentications", purged);
            }
        } catch (RuntimeException e) {
            log.warn("Cannot purge failed authentications: {}", e.toString());
        }
    }
}
