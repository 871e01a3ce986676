package io.tributary.transport.limits.tenant;

import io.tributary.common.session.LimitsApi;
import io.tributary.kafka.sessionclient.SessionServicePoller;
import io.tributary.transport.sessionclient.SessionServiceClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the node's copy of the tenants' publish and delivery quotas, fetched from session-service every {@code refresh} (and at
 * start). Chosen over carrying them in the CONNECT answer: a changed quota must reach connections that are open
 * already, so a poll is needed anyway, and with it alone there is one way a node learns a quota. A new or changed
 * quota holds on every node at most {@code refresh} later (plus the one-second window already leased). A node that
 * cannot reach session-service keeps the quotas it knows.
 */
public final class TenantQuotaPoller extends SessionServicePoller<LimitsApi.TenantPublishQuotas> {

    private static final Logger log = LoggerFactory.getLogger(TenantQuotaPoller.class);

    private final SessionServiceClient sessions;
    private final TenantPublishQuotas quotas;
    private final TenantDeliveryQuotas deliveryQuotas;

    public TenantQuotaPoller(
            SessionServiceClient sessions,
            TenantPublishQuotas quotas,
            TenantDeliveryQuotas deliveryQuotas,
            Duration refresh) {
        super("Tenant publish quotas", "tenant-quota-poller", refresh);
        this.sessions = sessions;
        this.quotas = quotas;
        this.deliveryQuotas = deliveryQuotas;
    }

    @Override
    protected CompletableFuture<LimitsApi.TenantPublishQuotas> fetch() {
        return sessions.tenantPublishQuotas();
    }

    @Override
    protected void apply(LimitsApi.TenantPublishQuotas answer, boolean first) {
        int before = quotas.tenants();
        int fullBefore = quotas.retainedFull();
        int deliveryBefore = deliveryQuotas.tenants();
        quotas.update(answer.tenants());
        deliveryQuotas.update(answer.tenants());
        if (first
                || before != quotas.tenants()
                || fullBefore != quotas.retainedFull()
                || deliveryBefore != deliveryQuotas.tenants()) {
            log.info(
                    "Tenant publish quotas: {} tenants with a publish quota, {} holding their retained-message quota,"
                            + " {} with a delivery quota",
                    quotas.tenants(),
                    quotas.retainedFull(),
                    deliveryQuotas.tenants());
        }
    }

    @Override
    protected int known() {
        return Math.max(quotas.tenants(), deliveryQuotas.tenants());
    }
}
