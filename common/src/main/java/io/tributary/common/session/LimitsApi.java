package io.tributary.common.session;

import java.util.List;

/**
 * The limits transport nodes fetch from session-service and enforce themselves ({@link SessionApi#BLOCKED_IPS},
 * {@link SessionApi#TENANT_PUBLISH_QUOTAS}; routers fetch the tenants' queue limits from the latter too).
 */
public final class LimitsApi {

    private LimitsApi() {}

    /**
     * The IP entries (addresses and CIDR ranges) of the block list, for transport nodes to refuse such clients
     * before calling session-service. {@code version} changes whenever the IP entries change; asked with the
     * version it has, a node gets {@code ranges} null when nothing changed.
     */
    public record BlockedIps(String version, List<String> ranges) {}

    /**
     * A tenant's publish quotas, summed over its clients on every transport node.
     *
     * @param maxPublishRate      PUBLISH packets per second; null: no limit
     * @param maxPublishBytesRate payload bytes per second; null: no limit
     * @param retainedFull        the tenant has a retained-message quota and holds that many retained messages: a
     *                            node refuses its retained PUBLISHes with a payload (0x97). False (or absent, from a
     *                            session-service older than the retained quota) otherwise.
     * @param maxQueuedMessages   messages each of the tenant's persistent sessions' queues holds at most, for the
     *                            routers (the global queue limit applies when lower); null: the global limit
     * @param maxDeliveryBytesRate payload bytes per second delivered to the tenant's clients, summed over every
     *                            transport node; null: no limit (and absent from a session-service older than it)
     */
    public record TenantPublishQuota(
            String tenant,
            Integer maxPublishRate,
            Long maxPublishBytesRate,
            boolean retainedFull,
            Integer maxQueuedMessages,
            Long maxDeliveryBytesRate) {

        /** A tenant without a delivery quota. */
        public TenantPublishQuota(
                String tenant,
                Integer maxPublishRate,
                Long maxPublishBytesRate,
                boolean retainedFull,
                Integer maxQueuedMessages) {
            this(tenant, maxPublishRate, maxPublishBytesRate, retainedFull, maxQueuedMessages, null);
        }

        /** A tenant with publish rates only. */
        public TenantPublishQuota(String tenant, Integer maxPublishRate, Long maxPublishBytesRate) {
            this(tenant, maxPublishRate, maxPublishBytesRate, false, null, null);
        }

        /** A tenant with publish rates and a retained quota, without a queued-message quota. */
        public TenantPublishQuota(
                String tenant, Integer maxPublishRate, Long maxPublishBytesRate, boolean retainedFull) {
            this(tenant, maxPublishRate, maxPublishBytesRate, retainedFull, null, null);
        }
    }

    /**
     * Every tenant with a publish, delivery, retained-message or queued-message quota; a tenant not listed has none.
     */
    public record TenantPublishQuotas(List<TenantPublishQuota> tenants) {}
}
