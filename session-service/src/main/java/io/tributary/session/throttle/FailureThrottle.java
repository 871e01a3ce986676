package io.tributary.session.throttle;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How many failed authentications an address may make: at most {@code perIdentityAndAddress} for one identity (an
 * admin's user name, an MQTT client's user name or client id) and {@code perAddress} in all within the window; past
 * either, the next attempt is refused before its secret is checked (no bcrypt spent) until the oldest failure leaves
 * the window. Failures are counted per (identity, address) and per address, never per identity alone, so a guesser
 * elsewhere cannot lock an admin or a device out from its own address. A success clears its (identity, address)
 * count, not the address's. A limit of 0 turns that count off. Identities are compared as given: callers that treat
 * them case-insensitively pass them folded.
 *
 * <p>Per instance, in memory: behind a load balancer with {@code n} session-service instances a guesser gets at most
 * {@code n} times the budget. The number of tracked keys is capped (the least recently failed are forgotten first),
 * so a flood of made-up identities costs bounded memory; the per-address count still holds them.
 */
public final class FailureThrottle {

    /** Keys tracked at most; each holds up to its limit of instants. */
    public static final int MAX_KEYS = 10_000;

    private final int perIdentityAndAddress;
    private final int perAddress;
    private final Duration window;
    private final Clock clock;
    private final Map<String, Deque<Instant>> failures = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Deque<Instant>> eldest) {
            return size() > MAX_KEYS;
        }
    };

    /**
     * @param perIdentityAndAddress failures one address may make for one identity within the window; 0: not counted
     * @param perAddress            failures one address may make in all within the window; 0: not counted
     * @param window                how long a failure counts; positive
     */
    public FailureThrottle(int perIdentityAndAddress, int perAddress, Duration window, Clock clock) {
        if (perIdentityAndAddress < 0 || perAddress < 0) {
            throw new IllegalArgumentException("failure limits must be 0 (off) or positive");
        }
        if (window == null || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("the failure window must be positive");
        }
        this.perIdentityAndAddress = perIdentityAndAddress;
        this.perAddress = perAddress;
        this.window = window;
        this.clock = clock;
    }

    /** How long the caller must wait before trying again, or empty when this attempt may be checked now. */
    public synchronized Optional<Duration> refusal(String identity, String address) {
        Instant now = clock.instant();
        Optional<Duration> identityWait = wait(identityKey(identity, address), perIdentityAndAddress, now);
        Optional<Duration> addressWait = wait(addressKey(address), perAddress, now);
        if (identityWait.isPresent() && addressWait.isPresent()) {
            return Optional.of(
                    identityWait.get().compareTo(addressWait.get()) >= 0 ? identityWait.get() : addressWait.get());
        }
        return identityWait.isPresent() ? identityWait : addressWait;
    }

    public synchronized void failed(String identity, String address) {
        Instant now = clock.instant();
        record(identityKey(identity, address), perIdentityAndAddress, now);
        record(addressKey(address), perAddress, now);
    }

    public synchronized void succeeded(String identity, String address) {
        failures.remove(identityKey(identity, address));
    }

    public synchronized int trackedKeys() {
        return failures.size();
    }

    private Optional<Duration> wait(String key, int limit, Instant now) {
        if (limit == 0) {
            return Optional.empty();
        }
        Deque<Instant> times = failures.get(key);
        if (times == null) {
            return Optional.empty();
        }
        expire(times, now);
        if (times.isEmpty()) {
            failures.remove(key);
            return Optional.empty();
        }
        if (times.size() < limit) {
            return Optional.empty();
        }
        Duration left = Duration.between(now, times.peekFirst().plus(window));
        return Optional.of(left.isNegative() ? Duration.ZERO : left);
    }

    private void record(String key, int limit, Instant now) {
        if (limit == 0) {
            return;
        }
        Deque<Instant> times = failures.computeIfAbsent(key, k -> new ArrayDeque<>());
        expire(times, now);
        times.addLast(now);
        while (times.size() > limit) {
            times.removeFirst();
        }
    }

    private void expire(Deque<Instant> times, Instant now) {
        Instant oldest = now.minus(window);
        while (!times.isEmpty() && !times.peekFirst().isAfter(oldest)) {
            times.removeFirst();
        }
    }

    private static String identityKey(String identity, String address) {
        return "i\u0000" + address + "\u0000" + (identity == null ? "" : identity);
    }

    private static String addressKey(String address) {
        return "a\u0000" + address;
    }
}
