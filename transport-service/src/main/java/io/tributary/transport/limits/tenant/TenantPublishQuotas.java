package io.tributary.transport.limits.tenant;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.codec.mqtt.MqttReasonCodes;
import io.netty.util.AttributeKey;
import io.tributary.common.session.LimitsApi;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.limits.ClientLimits;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tenants' publish quotas on this node: PUBLISH packets and payload bytes per second of all of a tenant's
 * clients on every node, each spent from a {@link QuotaLease} of the cluster-wide counter. The quotas themselves come
 * from session-service ({@link TenantQuotaPoller}); a tenant not known to have one is not limited.
 *
 * <p>A tenant that holds as many retained messages as its retained-message quota (as session-service last said) has
 * its retained PUBLISHes with a payload refused too, before they take anything from its rates; deletions (an empty
 * retained payload) always pass. This is approximate, as old as the last poll: session-service's retained consumer
 * enforces the quota exactly and does not store a new topic beyond it, whatever a node let through.
 *
 * <p>A refusal is counted in {@code tributary_tenant_quota_refusals_total{tenant,quota}} and logged once per
 * episode of each connection: the first refused PUBLISH after an accepted one (or the connection's first) writes one
 * line naming the client and the tenant, the rest of the episode only counts.
 */
public final class TenantPublishQuotas implements ClientLimits.PublishQuota {

    private static final Logger log = LoggerFactory.getLogger(TenantPublishQuotas.class);

    public static final String PUBLISH_RATE = "publish_rate";
    public static final String PUBLISH_BYTES = "publish_bytes";
    public static final String RETAINED = "retained";

    /** Of {@code tributary_tenant_quota_refusals_total}, shared with {@link TenantDeliveryQuotas}. */
    static final String REFUSALS_DESCRIPTION =
            "PUBLISHes refused, or QoS 0 deliveries dropped, because their tenant's quota was used up";

    /** Metric reason of {@link ClientLimits.Refusal}; the MQTT 5 code is 0x97 Quota exceeded, as for PUBACK. */
    public static final String REASON = "tenant_quota";

    private static final byte QUOTA_EXCEEDED = MqttReasonCodes.PubAck.QUOTA_EXCEEDED.byteValue();
    private static final AttributeKey<Boolean> REFUSING = AttributeKey.valueOf("tributary.tenantQuotaRefusing");

    /** No tenant quotas (handlers in unit tests). */
    public static final TenantPublishQuotas NONE =
            new TenantPublishQuotas((tenant, quota) -> null, new SimpleMeterRegistry(), System::nanoTime);

    private record Leases(QuotaLease rate, QuotaLease bytes) {}

    private final BiFunction<String, String, QuotaLease.QuotaCounter> counters;
    private final MeterRegistry registry;
    private final LongSupplier nanoTime;
    private final ConcurrentMap<String, Counter> refusals = new ConcurrentHashMap<>();
    private final QuotaLease.Health health =
            new CounterHealth("Tenant publish quotas", "each node admits at most each tenant's quota by itself");

    /** Written by the poller only, read by every event loop. */
    private volatile Map<String, Leases> leases = Map.of();
    /** The tenants holding their retained-message quota; written by the poller only. */
    private volatile Set<String> retainedFull = Set.of();

    /**
     * @param counters the cluster-wide counter of a tenant's quota ({@link RedisQuotaCounters#counter})
     * @param registry where refusals are counted
     */
    public TenantPublishQuotas(
            BiFunction<String, String, QuotaLease.QuotaCounter> counters,
            MeterRegistry registry,
            LongSupplier nanoTime) {
        this.counters = counters;
        this.registry = registry;
        this.nanoTime = nanoTime;
    }

    public TenantPublishQuotas(RedisQuotaCounters counters, MeterRegistry registry) {
        this(counters::counter, registry, System::nanoTime);
    }

    /**
     * Null when the connection's tenant has room for one more PUBLISH of {@code payloadBytes} ({@code retain}: a
     * retained one), else the refusal (0x97), counted and logged here. Never waits: the tokens are this node's leased
     * slice.
     */
    @Override
    public ClientLimits.Refusal check(ClientConnection connection, int payloadBytes, boolean retain) {
        String tenant = connection.namespace().tenant();
        if (tenant == null) {
            return null;
        }
        if (retain && payloadBytes > 0 && retainedFull.contains(tenant)) {
            return refuse(
                    connection,
                    tenant,
                    RETAINED,
                    "tenant '" + tenant + "' holds its quota of retained messages (delete one to store another)");
        }
        Leases quotas = leases.get(tenant);
        if (quotas == null) {
            return null;
        }
        String refused = null;
        if (quotas.rate() != null && !quotas.rate().tryTake(1)) {
            refused = PUBLISH_RATE;
        } else if (quotas.bytes() != null && payloadBytes > 0 && !quotas.bytes().tryTake(payloadBytes)) {
            if (quotas.rate() != null) {
                quotas.rate().giveBack(1);
            }
            refused = PUBLISH_BYTES;
        }
        if (refused == null) {
            if (connection.channel().hasAttr(REFUSING)) {
                connection.channel().attr(REFUSING).set(null); // the episode is over
            }
            return null;
        }
        String cause = PUBLISH_RATE.equals(refused)
                ? "tenant '" + tenant + "' is over its quota of "
                        + quotas.rate().limit() + " publishes per second"
                : "tenant '" + tenant + "' is over its quota of "
                        + quotas.bytes().limit() + " payload bytes per second";
        return refuse(connection, tenant, refused, cause);
    }

    private ClientLimits.Refusal refuse(ClientConnection connection, String tenant, String refused, String cause) {
        refusals.computeIfAbsent(tenant + '\n' + refused, k -> counter(tenant, k.substring(k.indexOf('\n') + 1)))
                .increment();
        if (connection.channel().attr(REFUSING).setIfAbsent(Boolean.TRUE) == null) {
            log.warn("Refusing publishes of {} until its tenant has room again: {}", connection, cause);
        }
        return new ClientLimits.Refusal(REASON, QUOTA_EXCEEDED, cause);
    }

    private Counter counter(String tenant, String quota) {
        return Counter.builder("tributary.tenant.quota.refusals")
                .description(REFUSALS_DESCRIPTION)
                .tag("tenant", tenant)
                .tag("quota", quota)
                .register(registry);
    }

    /**
     * The quotas session-service has now: known tenants keep their leases (with the new limits), new ones get
     * leases, tenants no longer listed (quota removed, tenant deleted) are no longer limited; those listed as
     * retained-full have their retained PUBLISHes refused until a list says otherwise.
     */
    public void update(List<LimitsApi.TenantPublishQuota> quotas) {
        Map<String, Leases> old = leases;
        Map<String, Leases> next = new HashMap<>();
        Set<String> full = new HashSet<>();
        for (LimitsApi.TenantPublishQuota q : quotas) {
            if (q.retainedFull()) {
                full.add(q.tenant());
            }
            Leases had = old.get(q.tenant());
            QuotaLease rate = lease(
                    q.tenant(),
                    PUBLISH_RATE,
                    had == null ? null : had.rate(),
                    q.maxPublishRate() == null ? null : q.maxPublishRate().longValue());
            QuotaLease bytes =
                    lease(q.tenant(), PUBLISH_BYTES, had == null ? null : had.bytes(), q.maxPublishBytesRate());
            if (rate != null || bytes != null) {
                next.put(q.tenant(), new Leases(rate, bytes));
            }
        }
        leases = Map.copyOf(next);
        retainedFull = Set.copyOf(full);
    }

    private QuotaLease lease(String tenant, String quota, QuotaLease had, Long limit) {
        if (limit == null) {
            return null;
        }
        if (had != null) {
            had.limit(limit);
            return had;
        }
        return new QuotaLease(limit, counters.apply(tenant, quota), health, nanoTime);
    }

    /** Tenants with a publish quota on this node now. */
    public int tenants() {
        return leases.size();
    }

    /** Tenants whose retained PUBLISHes this node refuses now (they hold their retained-message quota). */
    public int retainedFull() {
        return retainedFull.size();
    }
}
