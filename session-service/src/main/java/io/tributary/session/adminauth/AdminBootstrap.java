package io.tributary.session.adminauth;

import io.tributary.session.auth.PasswordHasher;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * Creates the first admin from {@code TRIBUTARY_ADMIN_USER} / {@code TRIBUTARY_ADMIN_PASSWORD} when no admin
 * exists. It never changes an existing admin: the configured password only matters for the first start. With no
 * admin and none configured, says so once: the admin API then answers 401 to everything.
 */
@Component
public class AdminBootstrap implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(AdminBootstrap.class);

    private final AdminAuthStore store;
    private final PasswordHasher hasher;
    private final AdminAuthProperties properties;
    private final Clock clock;

    public AdminBootstrap(AdminAuthStore store, PasswordHasher hasher, AdminAuthProperties properties, Clock clock) {
        this.store = store;
        this.hasher = hasher;
        this.properties = properties;
        this.clock = clock;
    }

    @Override
    public void run(ApplicationArguments args) {
        bootstrap();
    }

    /** What happened, for the log and for tests. */
    public enum Outcome {
        CREATED,
        ADMIN_EXISTS,
        NOT_CONFIGURED
    }

    public Outcome bootstrap() {
        if (store.countUsers() > 0) {
            return Outcome.ADMIN_EXISTS;
        }
        if (!properties.bootstrapConfigured()) {
            log.warn("*** NO ADMIN USER: the admin REST API (/api/v1/**) answers 401 to every request. Set "
                    + "TRIBUTARY_ADMIN_USER and TRIBUTARY_ADMIN_PASSWORD and restart to create the first admin. ***");
            return Outcome.NOT_CONFIGURED;
        }
        String problem = PasswordHasher.problem(properties.password());
        if (problem != null) {
            throw new IllegalStateException("TRIBUTARY_ADMIN_PASSWORD: " + problem);
        }
        if (store.insertFirstUser(properties.user(), hasher.hash(properties.password()), clock.instant())) {
            log.info("Created the first admin user '{}' from TRIBUTARY_ADMIN_USER", properties.user());
            return Outcome.CREATED;
        }
        return Outcome.ADMIN_EXISTS;
    }
}
