package io.tributary.routing.queue;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Where the routers learn the tenants' queued-message quotas ({@code maxQueuedMessages}): session-service's internal
 * quota list, fetched every {@code refresh}. Without a URL the routers fetch nothing and every queue has the global
 * limit ({@code TRIBUTARY_QUEUE_LIMIT}).
 *
 * @param sessionServiceUrl session-service base URL; empty: tenant queue quotas are not applied
 * @param internalToken     the routing nodes' internal API token, session-service's
 *                          {@code TRIBUTARY_INTERNAL_ROUTING_TOKEN} (required with a URL); session-service lets it
 *                          fetch the tenants' quotas and nothing else
 * @param refresh           how often the list is fetched: a changed quota holds that much later at most
 */
@Validated
@ConfigurationProperties("tributary.routing.tenant-quotas")
public record TenantQueueProperties(
        String sessionServiceUrl,
        String internalToken,
        @NotNull @DurationMin(millis = 100) Duration refresh) {

    /** Without the internal token: settings end up in logs and error messages. */
    @Override
    public String toString() {
        return "TenantQueueProperties[sessionServiceUrl=" + sessionServiceUrl + ", internalToken=(redacted), refresh="
                + refresh + "]";
    }

    /** Whether the routers fetch the tenants' queue quotas. */
    public boolean enabled() {
        return sessionServiceUrl != null && !sessionServiceUrl.isBlank();
    }

    @AssertTrue(message = "TRIBUTARY_INTERNAL_TOKEN (at least 16 characters) is required with SESSION_SERVICE_URL")
    public boolean isTokenGivenWithUrl() {
        return !enabled() || (internalToken != null && internalToken.length() >= 16);
    }
}
