package io.tributary.session.auth;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/**
 * MQTT authentication settings, bound from {@code tributary.session.auth.*} (application.yml maps the environment
 * variables).
 *
 * @param anonymous            let a CONNECT that no credential matches and that carries no password in, without ACL
 *                             restrictions. Off by default (production); the quick start and the integration test
 *                             cluster turn it on, and the service says so loudly at start-up
 * @param bcryptCost           log2 of the bcrypt rounds for new hashes; existing hashes keep the cost they were made
 *                             with. 10 costs roughly 50-100 ms of one core per CONNECT with a password
 * @param failureRetention     rows of {@code auth_failures} untouched for this long are purged
 * @param failurePurgeInterval how often that purge runs
 */
@Validated
@ConfigurationProperties("tributary.session.auth")
public record AuthProperties(
        boolean anonymous,
        @Min(4) @Max(31) int bcryptCost,
        @NotNull Duration failureRetention,
        @NotNull Duration failurePurgeInterval) {
}
