package io.tributary.routing.queue;

import io.tributary.common.session.SessionApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fetches the tenants' quota list from session-service ({@link SessionApi#TENANT_PUBLISH_QUOTAS}, the one transport
 * nodes poll too) on a thread of its own every {@code refresh}, and hands the queue quotas to
 * {@link TenantQueueLimits}. A router that cannot reach session-service keeps what it knows; the failure is logged
 * once, and so is the recovery. Never on the routing loop's thread.
 */
public final class TenantQueuePoller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TenantQueuePoller.class);

    private final TenantQueueProperties properties;
    private final TenantQueueLimits limits;
    private final JsonMapper json;
    private final HttpClient http;
    private ScheduledExecutorService timer;
    private volatile boolean fetched;
    private volatile boolean failing;

    public TenantQueuePoller(TenantQueueProperties properties, TenantQueueLimits limits, JsonMapper json) {
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
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tenant-queue-poller");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::poll, 0, properties.refresh().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One fetch, waiting for the answer on the poller's thread. */
    public void poll() {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(
                            properties.sessionServiceUrl().replaceAll("/+$", "") + SessionApi.TENANT_PUBLISH_QUOTAS))
                    .header(SessionApi.TOKEN_HEADER, properties.internalToken())
                    .timeout(properties.refresh().plusSeconds(10))
                    .GET()
                    .build();
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("HTTP " + response.statusCode());
            }
            SessionApi.TenantPublishQuotas answer =
                    json.readValue(response.body(), SessionApi.TenantPublishQuotas.class);
            int before = limits.tenants();
            limits.update(answer.tenants());
            if (failing) {
                failing = false;
                log.info("Tenant queue quotas: session-service answers again");
            }
            if (!fetched || before != limits.tenants()) {
                log.info("Tenant queue quotas: {} tenants with a queued-message quota", limits.tenants());
            }
            fetched = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (!failing) {
                failing = true;
                log.warn(
                        "Tenant queue quotas: could not fetch from session-service, keeping the {} known: {}",
                        limits.tenants(),
                        e.toString());
            }
        }
    }

    @Override
    public void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null && !timer.isShutdown();
    }
}
