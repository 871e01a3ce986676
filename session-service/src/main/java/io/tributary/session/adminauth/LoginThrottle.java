package io.tributary.session.adminauth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How many wrong admin logins an address may make: at most {@code perUserAndAddress} for one user name and
 * {@code perAddress} in all within the window; past either, the login is refused before its password is checked
 * (no bcrypt spent) until the oldest failure leaves the window. Failures are counted per (user name, address) and
 * per address, never per user name alone, so a guesser elsewhere cannot lock an admin out of their own address. A
 * successful login clears its (user name, address) count, not the address's.
 *
 * <p>Per instance, in memory: behind a load balancer with {@code n} session-service instances a guesser gets at most
 * {@code n} times the budget. The number of tracked keys is capped (the least recently failed are forgotten first),
 * so a flood of made-up user names costs bounded memory; the per-address count still holds them.
 */
final class LoginThrottle {

    /** Keys tracked at most; each holds up to its limit of instants. */
    static final int MAX_KEYS = 10_000;

    private final int perUserAndAddress;
    private final int perAddress;
    private final Duration window;
    private final Clock clock;
    private final Map<String, Deque<Instant>> failures = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Deque<Instant>> eldest) {
            return size() > MAX_KEYS;
        }
    };

    LoginThrottle(AdminAuthProperties.Login limits, Clock clock) {
        this.perUserAndAddress = limits.maxFailuresPerUser();
        this.perAddress = limits.maxFailuresPerAddress();
        this.window = limits.window();
        this.clock = clock;
    }

    /** How long the caller must wait before trying again, or empty when this login may be checked now. */
    synchronized Optional<Duration> refusal(String username, String address) {
        Instant now = clock.instant();
        Optional<Duration> user = wait(userKey(username, address), perUserAndAddress, now);
        Optional<Duration> all = wait(addressKey(address), perAddress, now);
        if (user.isPresent() && all.isPresent()) {
            return Optional.of(user.get().compareTo(all.get()) >= 0 ? user.get() : all.get());
        }
        return user.isPresent() ? user : all;
    }

    synchronized void failed(String username, String address) {
        Instant now = clock.instant();
        record(userKey(username, address), perUserAndAddress, now);
        record(addressKey(address), perAddress, now);
    }

    synchronized void succeeded(String username, String address) {
        failures.remove(userKey(username, address));
    }

    synchronized int trackedKeys() {
        return failures.size();
    }

    private Optional<Duration> wait(String key, int limit, Instant now) {
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

    private static String userKey(String username, String address) {
        return "u\u0000" + address + "\u0000" + (username == null ? "" : username.toLowerCase(Locale.ROOT));
    }

    private static String addressKey(String address) {
        return "a\u0000" + address;
    }
}
