package io.tributary.transport.delivery;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The node's budget of outbound QoS 1/2 bytes held for all its subscribers together (in flight and waiting). Each
 * connection's own bound ({@link OutboundDelivery.Limits#maxBytes()}) keeps one subscriber from holding too much;
 * this keeps many, each under its own bound, from holding together more than the node's heap can: once the node's
 * total reaches the budget, a message that would have to wait for its subscriber (window full, socket not draining) is
 * refused by the slow-consumer policy as at the subscriber's own bound, and session queues hand over nothing more
 * (their messages stay in Redis) until the total is below again. A message that can be written at once still is, so
 * subscribers that read are not held up by those that do not.
 *
 * <p>The total is the sum of every connection's held bytes (the figure of the {@code tributary.outbound.held.bytes}
 * gauge), summed again at most every {@link #REFRESH_MILLIS} ms by whichever thread asks first, without a lock and
 * without copying the registry. Asked only where a message would wait or a queue would be read, never per message
 * written. Between two sums the budget can be overshot by what the node holds more in that time.
 */
public final class NodeOutboundBudget {

    static final long REFRESH_MILLIS = 100;
    private static final long REFRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(REFRESH_MILLIS);

    /** No budget: never exceeded (nodes built without one, and tests). */
    public static final NodeOutboundBudget UNLIMITED =
            new NodeOutboundBudget(Long.MAX_VALUE, () -> 0, System::nanoTime);

    private final long maxBytes;
    private final LongSupplier heldBytes;
    private final LongSupplier nanoClock;
    private final AtomicLong nextSumNanos;
    private volatile long held;

    /**
     * @param maxBytes  the node's budget
     * @param heldBytes the bytes every connection of the node holds now, summed (read off their event loops: a
     *                  slightly stale figure is fine)
     */
    public NodeOutboundBudget(long maxBytes, LongSupplier heldBytes) {
        this(maxBytes, heldBytes, System::nanoTime);
    }

    NodeOutboundBudget(long maxBytes, LongSupplier heldBytes, LongSupplier nanoClock) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("the node's outbound budget must be positive: " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.heldBytes = heldBytes;
        this.nanoClock = nanoClock;
        this.nextSumNanos = new AtomicLong(nanoClock.getAsLong());
    }

    /** The budget: the heap's quarter when {@code configured} is 0 (the default), else {@code configured}. */
    public static long bytesFor(long configured, long maxHeap) {
        return configured > 0 ? configured : Math.max(1, maxHeap / 4);
    }

    /** Whether the node's subscribers hold the budget or more. */
    public boolean exceeded() {
        long now = nanoClock.getAsLong();
        long due = nextSumNanos.get();
        if (now - due >= 0 && nextSumNanos.compareAndSet(due, now + REFRESH_NANOS)) {
            held = heldBytes.getAsLong();
        }
        return held >= maxBytes;
    }

    public long maxBytes() {
        return maxBytes;
    }
}
