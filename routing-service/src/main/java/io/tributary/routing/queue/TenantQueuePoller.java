package io.tributary.routing.queue;

import io.tributary.common.session.LimitsApi;
import io.tributary.common.session.SessionApi;
import io.tributary.kafka.sessionclient.SessionServicePoller;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fetches the tenants' quota list from session-service ({@link SessionApi#TENANT_PUBLISH_QUOTAS}, the one transport
 * nodes poll too) every {@code refresh} and hands the queue quotas to {@link TenantQueueLimits}. Never on the
 * routing loop's thread; a router that cannot reach session-service keeps what it knows
 * ({@link SessionServicePoller}).
 */
public final class TenantQueuePoller extends SessionServicePoller<LimitsApi.TenantPublishQuotas> {

    private static final Logger log = LoggerFactory.getLogger(TenantQueuePoller.class);

    private final TenantQueueProperties properties;
    private final TenantQueueLimits limits;
    private final JsonMapper json;
    private final HttpClient http;

    public TenantQueuePoller(TenantQueueProperties properties, TenantQueueLimits limits, JsonMapper json) {
        super("Tenant queue quotas", "tenant-queue-poller", properties.refresh());
        this.properties = properties;
        this.limits = limits;
        this.json = json;
        this.http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @Override
    public void start() {
        if (!properties.enabled()) {
            log.info("Tenant queue quotas: no SESSION_SERVICE_URL, every session queue has the global limit");
            return;
        }
        super.start();
    }

    @Override
    protected CompletableFuture<LimitsApi.TenantPublishQuotas> fetch() {
        HttpRequest request = HttpRequest.newBuilder(URI.create(
                        properties.sessionServiceUrl().replaceAll("/+$", "") + SessionApi.TENANT_PUBLISH_QUOTAS))
                .header(SessionApi.TOKEN_HEADER, properties.internalToken())
                .timeout(properties.refresh().plusSeconds(10))
                .GET()
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).thenApply(response -> {
            if (response.statusCode() != 200) {
                throw new IllegalStateException("HTTP " + response.statusCode());
            }
            return json.readValue(response.body(), LimitsApi.TenantPublishQuotas.class);
        });
    }

    @Override
    protected void apply(LimitsApi.TenantPublishQuotas answer, boolean first) {
        int before = limits.tenants();
        limits.update(answer.tenants());
        if (first || before != limits.tenants()) {
            log.info("Tenant queue quotas: {} tenants with a queued-message quota", limits.tenants());
        }
    }

    @Override
    protected int known() {
        return limits.tenants();
    }
}
