package io.tributary.session.adminauth;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
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
 * @param login    how many wrong logins an address may make ({@link io.tributary.session.throttle.FailureThrottle})
 */
@Validated
@ConfigurationProperties("tributary.session.admin")
public record AdminAuthProperties(
        String user,
        String password,
        @NotNull Duration tokenTtl,
        @NotNull @Valid Login login) {

    /**
     * @param maxFailuresPerUser    wrong logins one address may make for one user name within the window
     * @param maxFailuresPerAddress wrong logins one address may make in all within the window
     * @param window                how long a wrong login counts
     */
    public record Login(
            @Min(1) @Max(1000) int maxFailuresPerUser,
            @Min(1) @Max(100_000) int maxFailuresPerAddress,
            @NotNull Duration window) {

        public Login {
            if (window != null && (window.isNegative() || window.isZero())) {
                throw new IllegalArgumentException("tributary.session.admin.login.window must be positive");
            }
        }
    }

    /** Without the first admin's password: settings end up in logs and error messages. */
    @Override
    public String toString() {
        return "AdminAuthProperties[user=" + user + ", password=(redacted), tokenTtl=" + tokenTtl + ", login=" + login
                + "]";
    }

    /** Whether a first admin is configured (both user name and password set). */
    boolean bootstrapConfigured() {
        return user != null && !user.isBlank() && password != null && !password.isEmpty();
    }
}
