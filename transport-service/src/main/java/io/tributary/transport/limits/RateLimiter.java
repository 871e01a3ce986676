package io.tributary.transport.limits;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A token bucket of {@code burst} tokens refilled at {@code perSecond}, written as the generic cell rate algorithm:
 * the whole state is one "theoretical arrival time", so acquiring is one compare-and-set, without a lock, from any
 * thread. A refused attempt takes nothing, so a client far over the rate still gets exactly the rate through. Time is
 * passed in (nanoseconds, {@link System#nanoTime()} in production) so tests control it.
 */
public final class RateLimiter {

    private final long intervalNanos;
    private final long toleranceNanos;
    private final AtomicLong theoreticalArrival;

    /**
     * @param perSecond tokens added per second, above 0
     * @param burst     tokens available at once, at least 1
     */
    public RateLimiter(double perSecond, int burst, long nowNanos) {
        if (!(perSecond > 0) || burst < 1) {
            throw new IllegalArgumentException(
                    "rate must be positive and burst at least 1: " + perSecond + ", " + burst);
        }
        this.intervalNanos = Math.max(1, Math.round(1_000_000_000d / perSecond));
        this.toleranceNanos = (burst - 1) * intervalNanos;
        this.theoreticalArrival = new AtomicLong(nowNanos);
    }

    /** Takes one token if there is one. */
    public boolean tryAcquire(long nowNanos) {
        while (true) {
            long arrival = theoreticalArrival.get();
            long base = arrival - nowNanos > 0 ? arrival : nowNanos;
            if (base - nowNanos > toleranceNanos) {
                return false;
            }
            if (theoreticalArrival.compareAndSet(arrival, base + intervalNanos)) {
                return true;
            }
        }
    }

    /** The bucket is full again: a new limiter would behave the same, so this one can be forgotten. */
    public boolean idle(long nowNanos) {
        return theoreticalArrival.get() - nowNanos <= 0;
    }
}
