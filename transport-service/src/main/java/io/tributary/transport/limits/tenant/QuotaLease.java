package io.tributary.transport.limits.tenant;

import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * This node's slice of one tenant's per-second allowance of one quota (PUBLISH packets, payload bytes in or out). The
 * allowance lives in a cluster-wide counter per one-second window ({@link QuotaCounter}: Redis's clock decides the
 * windows); this node takes tokens from it in batches of a tenth of the quota and spends them locally, so a PUBLISH
 * costs a few field updates under this object's lock and never waits for Redis.
 *
 * <ul>
 *   <li>A refill is asked for (one at a time, asynchronously) when fewer than half a batch is left, so the next
 *       batch usually arrives before the slice runs out.</li>
 *   <li>Tokens unused when the window ends are dropped: they were counted for that window. The window's end is taken
 *       from the counter's answer as seen from when the request was sent, so this node ends a window at or before
 *       Redis does.</li>
 *   <li>While a refill is on its way and the slice is empty, PUBLISHes go on on credit, up to one batch (and one
 *       message): the debt is sent with the next request and counted in the window it lands in, even beyond the
 *       quota. So latency to Redis never refuses a tenant under its quota; the price is the overshoot in
 *       docs/guarantees.md.</li>
 *   <li>Once the counter grants less than asked, the window is used up: what is left here is spent, then everything
 *       is refused until the window ends, with no more calls to Redis.</li>
 *   <li>Redis unreachable (the call failed): fail open, bounded. Until the window ends this node grants itself
 *       tokens without Redis, at most the whole quota per window, so the tenant gets at most its quota per node
 *       (the cluster, at most nodes x quota) until Redis answers again. Failing closed would stop every tenant with
 *       a quota whenever Redis is away, while its clients' messages would still reach Kafka.</li>
 * </ul>
 *
 * Thread-safe: clients of one tenant publish from several event loops, answers arrive on Redis's thread.
 */
public final class QuotaLease {

    static final long WINDOW_NANOS = 1_000_000_000L;

    /** What the counter answered: tokens granted, and how long the window they belong to had left then. */
    public record Grant(long granted, long windowLeftNanos) {}

    /** The cluster-wide counter of one tenant's quota. */
    public interface QuotaCounter {
        /**
         * Records {@code owed} tokens spent on credit and grants up to {@code want} more of the current window, no
         * more than {@code limit - used - owed}. Never blocks; a failed future means the counter is unreachable.
         */
        CompletableFuture<Grant> take(long limit, long want, long owed);
    }

    /** Told when calls to the counter start failing and when they succeed again (for one log line each). */
    interface Health {
        void failed(Throwable error);

        void answered();
    }

    private final QuotaCounter counter;
    private final Health health;
    private final LongSupplier nanoTime;

    private long limit;
    private long batch;
    /** Negative: spent on credit, not counted yet. */
    private long tokens;

    private boolean windowKnown;
    private long windowEnd;
    /** The counter granted less than asked: nothing more in this window. */
    private boolean exhausted;
    /** Tokens granted in this window, by the counter or (Redis away) locally: bounds the fail-open grants. */
    private long grantedInWindow;
    /** The counter failed in this window: refills are local until the window ends. */
    private boolean degraded;

    private boolean inFlight;

    QuotaLease(long limit, QuotaCounter counter, Health health, LongSupplier nanoTime) {
        this.counter = counter;
        this.health = health;
        this.nanoTime = nanoTime;
        limit(limit);
    }

    /** A changed quota: the counter compares with it from the next request on. */
    synchronized void limit(long limit) {
        this.limit = limit;
        this.batch = Math.max(1, (limit + 9) / 10);
    }

    synchronized long limit() {
        return limit;
    }

    /** Takes {@code n} tokens (1 per PUBLISH, or its payload bytes); false: over the quota, nothing taken. */
    boolean tryTake(long n) {
        return take(n, false);
    }

    /**
     * Takes {@code n} tokens even over the quota (a message already on its way out); the debt is counted in the
     * window it is paid in, so the quota still holds on average. A caller only spends after {@link #hasRoom}.
     */
    void spend(long n) {
        take(n, true);
    }

    /**
     * Whether a take of a small amount would pass now; nothing is taken, but a refill is asked for when one is due
     * (so a caller that only asks, and waits while the answer is no, gets room when the window turns).
     */
    boolean hasRoom() {
        long now = nanoTime.getAsLong();
        long owed;
        long want;
        boolean room;
        synchronized (this) {
            roll(now);
            if (limit <= 0) {
                return false;
            }
            room = tokens > 0 || (!exhausted && tokens > -batch);
            if (inFlight || exhausted || tokens >= (batch + 1) / 2) {
                return room;
            }
            owed = Math.max(0, -tokens);
            want = batch;
            if (degraded) {
                grantLocally(owed, want);
                return room || tokens > 0;
            }
            inFlight = true;
        }
        request(now, owed, want);
        return room;
    }

    private boolean take(long n, boolean force) {
        long now = nanoTime.getAsLong();
        long owed;
        long want;
        boolean taken;
        synchronized (this) {
            roll(now);
            if (limit <= 0) {
                return false;
            }
            if (tokens >= n || force) {
                tokens -= n;
                taken = true;
            } else if (!exhausted && tokens > -batch) {
                tokens -= n; // on credit
                taken = true;
            } else {
                taken = false;
            }
            if (inFlight || exhausted || tokens >= (batch + 1) / 2) {
                return taken;
            }
            owed = Math.max(0, -tokens);
            want = Math.max(batch, n);
            if (degraded) {
                grantLocally(owed, want);
                return taken;
            }
            inFlight = true;
        }
        request(now, owed, want);
        return taken;
    }

    /** Gives back what {@link #tryTake} took (the PUBLISH was refused by the other quota). */
    synchronized void giveBack(long n) {
        tokens += n;
    }

    private void request(long sentAt, long owed, long want) {
        CompletableFuture<Grant> answer;
        try {
            answer = counter.take(limit(), want, owed);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((grant, error) -> {
            if (error != null) {
                health.failed(error);
                failed(owed, want);
            } else {
                health.answered();
                granted(sentAt, owed, want, grant);
            }
        });
    }

    private synchronized void granted(long sentAt, long owed, long want, Grant grant) {
        inFlight = false;
        long now = nanoTime.getAsLong();
        roll(now);
        tokens += owed; // recorded by the counter: no longer a debt
        long end = sentAt + grant.windowLeftNanos();
        if (end - now > 0) {
            windowKnown = true;
            windowEnd = end;
            tokens += grant.granted();
            grantedInWindow += grant.granted() + owed;
            if (grant.granted() < want) {
                exhausted = true;
            }
        }
        // else: granted for a window that has ended here meanwhile; unused, as the counter is conservative
    }

    private synchronized void failed(long owed, long want) {
        inFlight = false;
        long now = nanoTime.getAsLong();
        roll(now);
        if (!windowKnown) {
            windowKnown = true;
            windowEnd = now + WINDOW_NANOS;
        }
        degraded = true;
        grantLocally(owed, want);
    }

    /** Fail open, bounded: at most the quota per window from this node while Redis is away. */
    private void grantLocally(long owed, long want) {
        tokens += owed;
        grantedInWindow += owed;
        long granted = Math.max(0, Math.min(want, limit - grantedInWindow));
        tokens += granted;
        grantedInWindow += granted;
        if (granted < want) {
            exhausted = true;
        }
    }

    /** At the end of a window: unused tokens go, debt stays (it is owed to the next request). */
    private void roll(long now) {
        if (!windowKnown || now - windowEnd < 0) {
            return;
        }
        long windows = (now - windowEnd) / WINDOW_NANOS + 1;
        windowEnd += windows * WINDOW_NANOS;
        tokens = Math.min(tokens, 0);
        exhausted = false;
        degraded = false;
        grantedInWindow = 0;
    }

    /** Tokens this node holds now (negative: spent on credit); tests. */
    synchronized long tokens() {
        return tokens;
    }

    synchronized boolean exhausted() {
        return exhausted;
    }
}
