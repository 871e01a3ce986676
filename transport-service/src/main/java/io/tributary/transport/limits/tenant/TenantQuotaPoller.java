package io.tributary.transport.limits.tenant;

import io.tributary.common.session.SessionApi;
import io.tributary.transport.sessionclient.SessionServiceClient;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps the node's copy of the tenants' publish quotas, fetched from session-service every {@code refresh} (and at
 * start). Chosen over carrying them in the CONNECT answer: a changed quota must reach connections that are open
 * already, so a poll is needed anyway, and with it alone there is one way a node learns a quota. A new or changed
 * quota holds on every node at most {@code refresh} later (plus the one-second window already leased). A node that
 * cannot reach session-service keeps the quotas it knows.
 */
public final class TenantQuotaPoller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TenantQuotaPoller.class);

    private final SessionServiceClient sessions;
    private final TenantPublishQuotas quotas;
    private final Duration refresh;
    private ScheduledExecutorService timer;
    private volatile boolean fetched;
    private volatile boolean failing;

    public TenantQuotaPoller(SessionServiceClient sessions, TenantPublishQuotas quotas, Duration refresh) {
        this.sessions = sessions;
        this.quotas = quotas;
        this.refresh = refresh;
    }

    @Override
    public void start() {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tenant-quota-poller");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::poll, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One fetch; waits for the answer (on the poller's own thread) so fetches never overlap. */
    void poll() {
        try {
            SessionApi.TenantPublishQuotas answer =
                    sessions.tenantPublishQuotas().get(refresh.toMillis() + 10_000, TimeUnit.MILLISECONDS);
            int before = quotas.tenants();
            quotas.update(answer.tenants());
            if (failing) {
                failing = false;
                log.info("Tenant publish quotas: session-service answers again");
            }
            if (!fetched || before != quotas.tenants()) {
                log.info("Tenant publish quotas: {} tenants with a publish quota", quotas.tenants());
            }
            fetched = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (!failing) {
                failing = true;
                if (!fetched) {
                    log.info("Tenant publish quotas: not fetched yet ({}), retrying every {}", e.toString(), refresh);
                } else {
                    log.warn(
                            "Tenant publish quotas: could not fetch them, keeping the {} known: {}",
                            quotas.tenants(),
                            e.toString());
                }
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
