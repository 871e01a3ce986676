package io.tributary.transport.limits;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One {@link RateLimiter} per source IP, in memory bounded by {@code maxTracked} entries, so a scan from many
 * addresses cannot grow the heap. A limiter whose bucket has refilled is indistinguishable from a new one, so it is
 * dropped at the next sweep without losing anything: the map holds only addresses that connected within the last
 * burst/rate seconds. Sweeps run on the calling thread, at most once per {@code sweepIntervalNanos}, or sooner when
 * the map is full. If it is still full after a sweep (more than {@code maxTracked} addresses each within its burst
 * window, that is a distributed flood), a new address is let through untracked and counted: the node-wide rate still
 * applies to it.
 */
public final class PerIpRateLimiter {

    /** While the table is full, sweeps (a walk over it) run at most this often, so a flood cannot make each
     * new address pay for a walk. */
    private static final long FULL_SWEEP_GAP_NANOS = 100_000_000L;

    private final double perSecond;
    private final int burst;
    private final int maxTracked;
    private final long sweepIntervalNanos;
    private final ConcurrentMap<InetAddress, RateLimiter> limiters = new ConcurrentHashMap<>();
    private final AtomicLong lastSweep;
    private final AtomicLong untracked = new AtomicLong();

    public PerIpRateLimiter(double perSecond, int burst, int maxTracked, long sweepIntervalNanos, long nowNanos) {
        if (maxTracked < 1) {
            throw new IllegalArgumentException("maxTracked must be at least 1: " + maxTracked);
        }
        this.perSecond = perSecond;
        this.burst = burst;
        this.maxTracked = maxTracked;
        this.sweepIntervalNanos = sweepIntervalNanos;
        this.lastSweep = new AtomicLong(nowNanos);
        // Fails fast on a bad rate or burst, at start-up rather than at the first connection.
        new RateLimiter(perSecond, burst, nowNanos);
    }

    /** Takes a token of {@code address}'s bucket; true when there was one (or the address could not be tracked). */
    public boolean tryAcquire(InetAddress address, long nowNanos) {
        sweep(nowNanos, sweepIntervalNanos);
        RateLimiter limiter = limiters.get(address);
        if (limiter == null) {
            if (limiters.size() >= maxTracked) {
                sweep(nowNanos, Math.min(sweepIntervalNanos, FULL_SWEEP_GAP_NANOS));
                if (limiters.size() >= maxTracked) {
                    untracked.incrementAndGet();
                    return true;
                }
            }
            limiter = limiters.computeIfAbsent(address, a -> new RateLimiter(perSecond, burst, nowNanos));
        }
        return limiter.tryAcquire(nowNanos);
    }

    /**
     * Forgets the addresses whose buckets are full again, if the last sweep is at least {@code gapNanos} ago; one
     * thread sweeps, the others go on.
     */
    void sweep(long nowNanos, long gapNanos) {
        long last = lastSweep.get();
        if (nowNanos - last < gapNanos || !lastSweep.compareAndSet(last, nowNanos)) {
            return;
        }
        limiters.values().removeIf(l -> l.idle(nowNanos));
    }

    /** Addresses tracked now. */
    public int tracked() {
        return limiters.size();
    }

    /** Connections let through untracked because the table was full. */
    public long untracked() {
        return untracked.get();
    }
}
