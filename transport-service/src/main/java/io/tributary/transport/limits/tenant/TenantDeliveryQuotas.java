package io.tributary.transport.limits.tenant;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.EventLoop;
import io.tributary.common.concurrent.DaemonThreads;
import io.tributary.common.session.LimitsApi;
import io.tributary.transport.connection.ClientConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tenants' delivery quotas on this node: payload bytes per second delivered to all of a tenant's clients on
 * every node, spent from a {@link QuotaLease} of the cluster-wide counter (the same machinery as the inbound byte
 * quota, in its own Redis key). Asked on the subscriber's event loop at delivery time; never waits for Redis.
 *
 * <ul>
 *   <li>QoS 0 over the rate is dropped ({@link #admitQos0}): counted in
 *       {@code tributary_tenant_quota_refusals_total{quota="delivery_bytes"}}, one WARN line per episode of the
 *       tenant (drops less than {@link #EPISODE_GAP} apart).</li>
 *   <li>QoS 1/2 is delayed, never dropped for this quota ({@link #tryDeliver}, {@link #hasRoom}): the connection is
 *       held, and every {@link #TICK} the node releases the held connections of tenants that have room again, each
 *       on its own event loop, where delivery writes what waited. Delayed messages are counted in
 *       {@code tributary_tenant_delivery_delayed_total{tenant}}.</li>
 * </ul>
 *
 * The quotas come with the publish quotas ({@link TenantQuotaPoller}); a tenant not known to have one is not
 * limited and costs one map lookup per delivery.
 */
public final class TenantDeliveryQuotas implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TenantDeliveryQuotas.class);

    public static final String DELIVERY_BYTES = "delivery_bytes";

    /** How often held connections are looked at: a tenth of the one-second window, the lease's batch too. */
    static final Duration TICK = Duration.ofMillis(100);

    /** Drops (or delays) of a tenant closer together than this are one episode: one WARN line. */
    static final long EPISODE_GAP = TimeUnit.SECONDS.toNanos(10);

    /** No delivery quotas (delivery in unit tests). */
    public static final TenantDeliveryQuotas NONE =
            new TenantDeliveryQuotas((tenant, quota) -> null, new SimpleMeterRegistry(), System::nanoTime);

    /** One tenant's quota and what it counts. */
    private final class TenantQuota {
        final String tenant;
        final QuotaLease lease;
        final AtomicLong lastDrop = new AtomicLong(Long.MIN_VALUE);
        final AtomicLong lastDelay = new AtomicLong(Long.MIN_VALUE);
        volatile Counter refusals;
        volatile Counter delayed;

        TenantQuota(String tenant, QuotaLease lease) {
            this.tenant = tenant;
            this.lease = lease;
        }

        Counter refusals() {
            Counter c = refusals;
            if (c == null) {
                c = Counter.builder("tributary.tenant.quota.refusals")
                        .description(TenantPublishQuotas.REFUSALS_DESCRIPTION)
                        .tag("tenant", tenant)
                        .tag("quota", DELIVERY_BYTES)
                        .register(registry);
                refusals = c;
            }
            return c;
        }

        Counter delayed() {
            Counter c = delayed;
            if (c == null) {
                c = Counter.builder("tributary.tenant.delivery.delayed")
                        .description("QoS 1/2 deliveries held back because their tenant was over its delivery quota")
                        .tag("tenant", tenant)
                        .register(registry);
                delayed = c;
            }
            return c;
        }
    }

    private final BiFunction<String, String, QuotaLease.QuotaCounter> counters;
    private final MeterRegistry registry;
    private final LongSupplier nanoTime;
    private final QuotaLease.Health health =
            new CounterHealth("Tenant delivery quotas", "each node delivers at most each tenant's quota by itself");

    /** Written by the poller only, read by every event loop. */
    private volatile Map<String, TenantQuota> quotas = Map.of();

    /** Connections with QoS 1/2 deliveries waiting for their tenant's quota. */
    private final Set<ClientConnection> held = ConcurrentHashMap.newKeySet();

    private volatile Consumer<ClientConnection> release = connection -> {};
    /** Started with the first held connection; null until then. */
    private ScheduledExecutorService ticker;

    private boolean closed;

    public TenantDeliveryQuotas(
            BiFunction<String, String, QuotaLease.QuotaCounter> counters,
            MeterRegistry registry,
            LongSupplier nanoTime) {
        this.counters = counters;
        this.registry = registry;
        this.nanoTime = nanoTime;
    }

    public TenantDeliveryQuotas(RedisQuotaCounters counters, MeterRegistry registry) {
        this(counters::counter, registry, System::nanoTime);
    }

    /**
     * What releases a held connection, run on the connection's event loop: delivery writes what waited, and holds
     * the connection again if its tenant runs out once more.
     */
    public void onRelease(Consumer<ClientConnection> release) {
        this.release = release;
    }

    /**
     * A QoS 0 delivery of {@code payloadBytes} to {@code connection}: true when its tenant has room (the bytes are
     * taken), false when it is over its quota: the caller drops the message, counted and logged here.
     */
    public boolean admitQos0(ClientConnection connection, int payloadBytes) {
        TenantQuota quota = quotaOf(connection);
        if (quota == null || quota.lease.tryTake(payloadBytes)) {
            return true;
        }
        quota.refusals().increment();
        if (newEpisode(quota.lastDrop)) {
            log.warn(
                    "Dropping QoS 0 deliveries to tenant '{}' (first to {}): over its quota of {} delivered payload"
                            + " bytes per second",
                    quota.tenant,
                    connection,
                    quota.lease.limit());
        }
        return false;
    }

    /**
     * A QoS 1/2 delivery of {@code payloadBytes} whose turn to be written has come: true when it may go now (the
     * bytes are taken); false: it waits, and the connection is released when the tenant has room again.
     */
    public boolean tryDeliver(ClientConnection connection, int payloadBytes) {
        TenantQuota quota = quotaOf(connection);
        if (quota == null || quota.lease.tryTake(payloadBytes)) {
            return true;
        }
        hold(connection);
        return false;
    }

    /** A QoS 1/2 message refused by {@link #tryDeliver} for the first time: counted, logged once per episode. */
    public void delayed(ClientConnection connection) {
        TenantQuota quota = quotaOf(connection);
        if (quota == null) {
            return;
        }
        quota.delayed().increment();
        if (newEpisode(quota.lastDelay)) {
            log.info(
                    "Delaying QoS 1/2 deliveries to tenant '{}' (first to {}): over its quota of {} delivered payload"
                            + " bytes per second",
                    quota.tenant,
                    connection,
                    quota.lease.limit());
        }
    }

    /**
     * Whether the persistent session's queue reader of {@code connection} may take more now; false: its tenant is
     * over its quota, the messages stay in the queue and the connection is released when it has room again.
     */
    public boolean hasRoom(ClientConnection connection) {
        TenantQuota quota = quotaOf(connection);
        if (quota == null || quota.lease.hasRoom()) {
            return true;
        }
        hold(connection);
        return false;
    }

    /** Payload bytes of a message read from a session queue after {@link #hasRoom}: taken even over the quota. */
    public void spend(ClientConnection connection, int payloadBytes) {
        TenantQuota quota = quotaOf(connection);
        if (quota != null) {
            quota.lease.spend(payloadBytes);
        }
    }

    private TenantQuota quotaOf(ClientConnection connection) {
        Map<String, TenantQuota> known = quotas;
        if (known.isEmpty()) {
            return null;
        }
        String tenant = connection.namespace().tenant();
        return tenant == null ? null : known.get(tenant);
    }

    private boolean newEpisode(AtomicLong last) {
        long now = nanoTime.getAsLong();
        long before = last.getAndSet(now);
        return before == Long.MIN_VALUE || now - before > EPISODE_GAP;
    }

    private void hold(ClientConnection connection) {
        if (held.add(connection)) {
            startTicker();
        }
    }

    private synchronized void startTicker() {
        if (ticker != null || closed) {
            return;
        }
        ticker = DaemonThreads.scheduler("tenant-delivery-quota-tick");
        ticker.scheduleWithFixedDelay(
                () -> {
                    try {
                        tick();
                    } catch (RuntimeException e) {
                        // An exception would cancel the schedule and leave held connections waiting for good.
                        log.warn("Tenant delivery quotas: releasing held connections failed: {}", e.toString());
                    }
                },
                TICK.toMillis(),
                TICK.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * Releases the held connections whose tenant has room again (or no quota any more), one task per event loop;
     * asking a lease for room also asks Redis for the next window's tokens when they are due.
     */
    void tick() {
        if (held.isEmpty()) {
            return;
        }
        Map<String, TenantQuota> known = quotas;
        Map<String, Boolean> room = new HashMap<>();
        Map<EventLoop, List<ClientConnection>> byLoop = new HashMap<>();
        for (Iterator<ClientConnection> it = held.iterator(); it.hasNext(); ) {
            ClientConnection connection = it.next();
            if (!connection.channel().isActive()) {
                it.remove();
                continue;
            }
            String tenant = connection.namespace().tenant();
            TenantQuota quota = tenant == null ? null : known.get(tenant);
            if (quota != null && !room.computeIfAbsent(tenant, t -> quota.lease.hasRoom())) {
                continue;
            }
            it.remove();
            byLoop.computeIfAbsent(connection.channel().eventLoop(), l -> new ArrayList<>())
                    .add(connection);
        }
        Consumer<ClientConnection> releasing = release;
        for (Map.Entry<EventLoop, List<ClientConnection>> e : byLoop.entrySet()) {
            try {
                e.getKey().execute(() -> e.getValue().forEach(releasing));
            } catch (RejectedExecutionException closing) {
                // The event loop is shutting down with its connections: nothing to release.
            }
        }
    }

    /** Connections held for their tenant's delivery quota now; tests and the gauge. */
    public int held() {
        return held.size();
    }

    /**
     * The quotas session-service has now: known tenants keep their leases (with the new limits), new ones get
     * leases, tenants no longer listed are no longer limited (the next tick releases their held connections).
     */
    public void update(List<LimitsApi.TenantPublishQuota> list) {
        Map<String, TenantQuota> old = quotas;
        Map<String, TenantQuota> next = new HashMap<>();
        for (LimitsApi.TenantPublishQuota q : list) {
            if (q.maxDeliveryBytesRate() == null) {
                continue;
            }
            TenantQuota had = old.get(q.tenant());
            if (had != null) {
                had.lease.limit(q.maxDeliveryBytesRate());
                next.put(q.tenant(), had);
            } else {
                next.put(
                        q.tenant(),
                        new TenantQuota(
                                q.tenant(),
                                new QuotaLease(
                                        q.maxDeliveryBytesRate(),
                                        counters.apply(q.tenant(), DELIVERY_BYTES),
                                        health,
                                        nanoTime)));
            }
        }
        quotas = Map.copyOf(next);
    }

    /** Tenants with a delivery quota on this node now. */
    public int tenants() {
        return quotas.size();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (ticker != null) {
            ticker.shutdownNow();
            ticker = null;
        }
    }
}
