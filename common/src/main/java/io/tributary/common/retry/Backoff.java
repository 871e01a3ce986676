package io.tributary.common.retry;

import java.time.Duration;

/**
 * The one back-off of the project: the first wait after a success is {@code first}, each further one twice as long, up
 * to {@code max}; a success starts again from {@code first}. {@code first == max} is a fixed pause.
 *
 * <p>Used by every Kafka consumer thread ({@link io.tributary.common.kafka.PollLoop}), the router's retry policy and
 * the quick start's process supervisor. Not thread-safe: one loop owns one.
 */
public final class Backoff {

    private final Duration first;
    private final Duration max;
    /** Failures since the last success. */
    private int failures;

    public Backoff(Duration first, Duration max) {
        if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException("back-off must be positive and max >= first: " + first + ", " + max);
        }
        this.first = first;
        this.max = max;
    }

    /** The same pause after every failure. */
    public static Backoff fixed(Duration pause) {
        return new Backoff(pause, pause);
    }

    /** Records a failure and returns how long to wait before the next attempt. */
    public Duration next() {
        if (failures < Integer.MAX_VALUE) {
            failures++;
        }
        return delay(failures);
    }

    /** Records a success: the next failure waits {@code first} again. */
    public void reset() {
        failures = 0;
    }

    /** The wait after the {@code failure}-th failure in a row (1 for the first): {@code first * 2^(failure-1)}, capped. */
    public Duration delay(int failure) {
        Duration wait = first;
        for (int i = 1; i < failure && wait.compareTo(max) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(max) > 0 ? max : wait;
    }

    public Duration first() {
        return first;
    }

    public Duration max() {
        return max;
    }
}
