package io.tributary.transport.metering;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The counters of one tenant on this node, held by each of its connections ({@code ClientConnection.meter()}), so
 * counting needs no lookup: messages and payload bytes in (added on the Kafka producer's thread when Kafka has stored
 * a PUBLISH) and out (added on the event loop as a PUBLISH is written), in {@link LongAdder}s; and connection time,
 * integrated over the tenant's connected clients at each connect, disconnect and {@link #takeConnectionMillis take}
 * (rare next to messages, so under the meter's own lock). {@link #NONE}, the meter of clients without a tenant,
 * counts nothing.
 */
public final class TenantMeter {

    /** Clients without a tenant are not metered. */
    public static final TenantMeter NONE = new TenantMeter(null, () -> 0);

    private final String tenant;
    private final LongSupplier clockMillis;
    private final LongAdder messagesIn = new LongAdder();
    private final LongAdder bytesIn = new LongAdder();
    private final LongAdder messagesOut = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();

    // Guarded by this.
    private int connected;
    private long connectionMillis;
    private long integratedUntil;

    TenantMeter(String tenant, LongSupplier clockMillis) {
        this.tenant = tenant;
        this.clockMillis = clockMillis;
        this.integratedUntil = clockMillis.getAsLong();
    }

    /** The tenant id; null for {@link #NONE}. */
    public String tenant() {
        return tenant;
    }

    /** A PUBLISH with {@code payloadBytes} of payload was stored by Kafka. */
    public void in(long payloadBytes) {
        if (tenant != null) {
            messagesIn.increment();
            bytesIn.add(payloadBytes);
        }
    }

    /** {@code messages} PUBLISH packets with {@code payloadBytes} of payload in all were written to clients. */
    public void out(long messages, long payloadBytes) {
        if (tenant != null) {
            messagesOut.add(messages);
            bytesOut.add(payloadBytes);
        }
    }

    /** A client of the tenant was accepted (CONNACK). */
    public void connected() {
        if (tenant != null) {
            synchronized (this) {
                integrate();
                connected++;
            }
        }
    }

    /** A client of the tenant went away (its channel closed). */
    public void disconnected() {
        if (tenant != null) {
            synchronized (this) {
                integrate();
                connected--;
            }
        }
    }

    private void integrate() {
        long now = clockMillis.getAsLong();
        if (now > integratedUntil) {
            connectionMillis += connected * (now - integratedUntil);
            integratedUntil = now;
        }
    }

    /** Connected clients right now. */
    public synchronized int connectedClients() {
        return connected;
    }

    /** The connection time since the last take, in milliseconds; starts the next interval. */
    synchronized long takeConnectionMillis() {
        integrate();
        long taken = connectionMillis;
        connectionMillis = 0;
        return taken;
    }

    long takeMessagesIn() {
        return messagesIn.sumThenReset();
    }

    long takeBytesIn() {
        return bytesIn.sumThenReset();
    }

    long takeMessagesOut() {
        return messagesOut.sumThenReset();
    }

    long takeBytesOut() {
        return bytesOut.sumThenReset();
    }

    /** Gives back counts taken but not sent (so they go out with the next interval). */
    void restore(long messagesIn, long bytesIn, long messagesOut, long bytesOut, long connectionMillis) {
        this.messagesIn.add(messagesIn);
        this.bytesIn.add(bytesIn);
        this.messagesOut.add(messagesOut);
        this.bytesOut.add(bytesOut);
        synchronized (this) {
            this.connectionMillis += connectionMillis;
        }
    }
}
