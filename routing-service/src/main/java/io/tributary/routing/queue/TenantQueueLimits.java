package io.tributary.routing.queue;

import io.tributary.common.session.SessionApi;
import io.tributary.common.tenant.TenantTopics;
import io.tributary.sessionqueue.QueueAppender;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The session queue appender with each tenant's queued-message quota: a queue of a tenant's session holds at most
 * the lower of the tenant's {@code maxQueuedMessages} and the global limit; the global full policy decides what is
 * dropped. A session's tenant is its messages' (a tenant's clients only match topics under {@code $tenant/<id>/});
 * a batch holding only {@code $SYS} messages, which are global, gets the global limit.
 */
public final class TenantQueueLimits implements QueueAppender {

    private final QueueAppender appender;
    /** Written by the poller only, read by the routing loop. */
    private volatile Map<String, Integer> limits = Map.of();

    public TenantQueueLimits(QueueAppender appender) {
        this.appender = appender;
    }

    @Override
    public CompletableFuture<List<Appended>> appendAll(
            String clientId, int partition, List<Message> messages, int limit) {
        Map<String, Integer> known = limits;
        if (!known.isEmpty()) {
            for (Message m : messages) {
                byte[] key = m.publish().key();
                String tenant = key == null ? null : TenantTopics.tenantOf(new String(key, StandardCharsets.UTF_8));
                if (tenant != null) {
                    Integer quota = known.get(tenant);
                    if (quota != null) {
                        limit = Math.min(limit, quota);
                    }
                    break;
                }
            }
        }
        return appender.appendAll(clientId, partition, messages, limit);
    }

    /** The list session-service has now; tenants not on it (or without a queue quota) get the global limit. */
    public void update(List<SessionApi.TenantPublishQuota> quotas) {
        Map<String, Integer> next = new HashMap<>();
        for (SessionApi.TenantPublishQuota q : quotas) {
            if (q.maxQueuedMessages() != null && q.maxQueuedMessages() >= 1) {
                next.put(q.tenant(), q.maxQueuedMessages());
            }
        }
        limits = Map.copyOf(next);
    }

    /** Tenants with a queue quota known now. */
    public int tenants() {
        return limits.size();
    }
}
