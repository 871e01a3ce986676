package io.tributary.session.adminauth;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Admin REST API authentication, bound from {@code tributary.session.admin.*} (application.yml maps the environment
 * variables).
 *
 * @param user     user name of the first admin, created at start-up when no admin exists; empty: none
 * @param password its password; no default in the production configuration
 * @param tokenTtl how long a bearer token from {@code POST /api/v1/admin/tokens} is valid
 */
@Validated
@ConfigurationProperties("tributary.session.admin")
public record AdminAuthProperties(
        String user, String password, @NotNull Duration tokenTtl) {

    /** Whether a first admin is configured (both user name and password set). */
    boolean bootstrapConfigured() {
        return user != null && !user.isBlank() && password != null && !password.isEmpty();
    }
}
