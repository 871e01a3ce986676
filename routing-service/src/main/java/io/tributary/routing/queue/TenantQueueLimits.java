package io.tributary.routing.queue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.tributary.common.session.LimitsApi;
import io.tributary.common.tenant.TenantTopics;
import io.tributary.sessionqueue.QueueAppender;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The session queue appender with each tenant's queued-message quota: a queue of a tenant's session holds at most
 * the lower of the tenant's {@code maxQueuedMessages} and the global limit; the global full policy decides what is
 * dropped. A session's tenant is its messages' (a tenant's clients only match topics under {@code $tenant/<id>/});
 * a batch holding only {@code $SYS} messages, which are global, gets the global limit.
 *
 * <p>Messages dropped because the tenant's quota (not the global limit) was the one reached, by either full policy,
 * are counted in {@code tributary_tenant_quota_refusals_total{tenant,quota="queued_messages"}} too, beside routing's
 * {@code tributary_routing_dropped_total{reason="session_queue_full"}}, which counts every full-queue drop. Drops by
 * the byte budget ({@code reason="session_queue_bytes"}) are not the quota's, even in a tenant's queue.
 */
public final class TenantQueueLimits implements QueueAppender {

    /** The {@code quota} label of the drops counted here. */
    public static final String QUEUED_MESSAGES = "queued_messages";

    private final QueueAppender appender;
    /** The appender's own limit: a tenant's quota at or above it changes nothing (its drops are not the quota's). */
    private final int globalLimit;

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Counter> drops = new ConcurrentHashMap<>();
    /** {@code tributary_routing_tenant_queue_quota{tenant}}: what this router applies, as of its last poll. */
    private final MultiGauge applied;
    /** Written by the poller only, read by the routing loop. */
    private volatile Map<String, Integer> limits = Map.of();

    /** @param globalLimit the limit {@code appender} applies itself ({@code TRIBUTARY_QUEUE_LIMIT}) */
    public TenantQueueLimits(QueueAppender appender, int globalLimit, MeterRegistry registry) {
        this.appender = appender;
        this.globalLimit = globalLimit;
        this.registry = registry;
        this.applied = MultiGauge.builder("tributary.routing.tenant.queue.quota")
                .description("Queued-message quota this router applies to each tenant's session queues, as last polled")
                .register(registry);
    }

    @Override
    public CompletableFuture<List<Appended>> appendAll(
            String clientId, int partition, List<Message> messages, int limit) {
        Map<String, Integer> known = limits;
        String limitedBy = null;
        if (!known.isEmpty()) {
            for (Message m : messages) {
                byte[] key = m.publish().key();
                String tenant = key == null ? null : TenantTopics.tenantOf(new String(key, StandardCharsets.UTF_8));
                if (tenant != null) {
                    Integer quota = known.get(tenant);
                    if (quota != null && quota < Math.min(limit, globalLimit)) {
                        limit = quota;
                        limitedBy = tenant;
                    }
                    break;
                }
            }
        }
        CompletableFuture<List<Appended>> appended = appender.appendAll(clientId, partition, messages, limit);
        if (limitedBy == null) {
            return appended;
        }
        String tenant = limitedBy;
        return appended.thenApply(outcomes -> {
            long dropped = 0;
            for (Appended a : outcomes) {
                // The oldest that made room, or the newest refused (1); the byte budget's drops are not the quota's.
                dropped += a.droppedForCount();
            }
            if (dropped > 0) {
                drops.computeIfAbsent(tenant, this::counter).increment((double) dropped);
            }
            return outcomes;
        });
    }

    private Counter counter(String tenant) {
        return Counter.builder("tributary.tenant.quota.refusals")
                .description("Messages dropped from a session queue because their tenant's queue quota was reached")
                .tag("tenant", tenant)
                .tag("quota", QUEUED_MESSAGES)
                .register(registry);
    }

    /** The list session-service has now; tenants not on it (or without a queue quota) get the global limit. */
    public void update(List<LimitsApi.TenantPublishQuota> quotas) {
        Map<String, Integer> next = new HashMap<>();
        for (LimitsApi.TenantPublishQuota q : quotas) {
            if (q.maxQueuedMessages() != null && q.maxQueuedMessages() >= 1) {
                next.put(q.tenant(), q.maxQueuedMessages());
            }
        }
        limits = Map.copyOf(next);
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        next.forEach((tenant, quota) -> rows.add(MultiGauge.Row.of(Tags.of("tenant", tenant), quota)));
        applied.register(rows, true);
    }

    /** Tenants with a queue quota known now. */
    public int tenants() {
        return limits.size();
    }
}
