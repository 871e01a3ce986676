package io.tributary.transport.metering;

import io.tributary.common.metering.UsageDelta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * This node's usage accumulator: one {@link TenantMeter} per tenant that had a client here since the node started
 * (tenants are few; a meter is a handful of counters), and the numbering of the deltas it hands out. {@link #take}
 * turns what was counted since the last take into one {@link UsageDelta} per tenant with activity.
 */
public final class TenantMeters {

    private final String nodeId;
    private final long incarnation;
    private final LongSupplier clockMillis;
    private final ConcurrentMap<String, TenantMeter> meters = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();

    /**
     * @param incarnation distinguishes this process from earlier ones of the same node id (its start, epoch millis):
     *        delta numbers start again at 1 in each
     */
    public TenantMeters(String nodeId, long incarnation, LongSupplier clockMillis) {
        this.nodeId = nodeId;
        this.incarnation = incarnation;
        this.clockMillis = clockMillis;
    }

    /** A meter that counts nothing, for tests and nodes that meter nobody. */
    public static TenantMeters unmetered() {
        return new TenantMeters("unmetered", 0, System::currentTimeMillis);
    }

    /** The meter of {@code tenant} ({@link TenantMeter#NONE} for null), with one more connected client. */
    public TenantMeter connected(String tenant) {
        TenantMeter meter = meter(tenant);
        meter.connected();
        return meter;
    }

    /** The meter of {@code tenant}; {@link TenantMeter#NONE} for null (clients without a tenant are not metered). */
    public TenantMeter meter(String tenant) {
        if (tenant == null) {
            return TenantMeter.NONE;
        }
        return meters.computeIfAbsent(tenant, t -> new TenantMeter(t, clockMillis));
    }

    /**
     * Everything counted since the last take, attributed to {@code hour}: one delta per tenant that counted anything,
     * each numbered. The caller makes sure an interval does not straddle two hours.
     */
    public List<UsageDelta> take(Instant hour) {
        List<UsageDelta> deltas = new ArrayList<>();
        for (TenantMeter meter : meters.values()) {
            long messagesIn = meter.takeMessagesIn();
            long bytesIn = meter.takeBytesIn();
            long messagesOut = meter.takeMessagesOut();
            long bytesOut = meter.takeBytesOut();
            long connectionMillis = meter.takeConnectionMillis();
            if ((messagesIn | bytesIn | messagesOut | bytesOut | connectionMillis) == 0) {
                continue;
            }
            deltas.add(new UsageDelta(
                    meter.tenant(),
                    nodeId,
                    incarnation,
                    sequence.incrementAndGet(),
                    UsageDelta.hourOf(hour),
                    messagesIn,
                    bytesIn,
                    messagesOut,
                    bytesOut,
                    connectionMillis));
        }
        return deltas;
    }

    /**
     * A delta Kafka refused before it was sent (the producer threw at once, so it is surely not stored): its counts go
     * back to the tenant's meter and leave with the next interval.
     */
    public void giveBack(UsageDelta delta) {
        meter(delta.tenant())
                .restore(
                        delta.messagesIn(),
                        delta.bytesIn(),
                        delta.messagesOut(),
                        delta.bytesOut(),
                        delta.connectionMillis());
    }

    public String nodeId() {
        return nodeId;
    }
}
