package io.tributary.transport.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RateLimiterTest {

    private static final long MS = 1_000_000L;

    @Test
    void a_full_bucket_gives_its_burst_at_once_then_the_rate() {
        long t = 5_000 * MS;
        RateLimiter limiter = new RateLimiter(10, 3, t);
        assertThat(limiter.tryAcquire(t)).isTrue();
        assertThat(limiter.tryAcquire(t)).isTrue();
        assertThat(limiter.tryAcquire(t)).isTrue();
        assertThat(limiter.tryAcquire(t)).as("burst of 3 used up").isFalse();
        assertThat(limiter.tryAcquire(t + 99 * MS)).as("one token per 100 ms").isFalse();
        assertThat(limiter.tryAcquire(t + 100 * MS)).isTrue();
        assertThat(limiter.tryAcquire(t + 100 * MS)).isFalse();
    }

    @Test
    void refused_attempts_take_nothing_so_a_client_far_over_the_rate_still_gets_the_rate() {
        long t = 0;
        RateLimiter limiter = new RateLimiter(100, 1, t);
        int granted = 0;
        // 10,000 attempts per second for one second: exactly the rate (plus the first token) gets through.
        for (int i = 0; i < 10_000; i++) {
            if (limiter.tryAcquire(t + i * 100_000L)) {
                granted++;
            }
        }
        assertThat(granted).isEqualTo(100);
    }

    @Test
    void an_idle_bucket_refills_only_up_to_its_burst_and_says_so() {
        long t = -7_000 * MS; // System.nanoTime may be negative
        RateLimiter limiter = new RateLimiter(1, 2, t);
        assertThat(limiter.idle(t)).isTrue();
        assertThat(limiter.tryAcquire(t)).isTrue();
        assertThat(limiter.idle(t)).isFalse();
        assertThat(limiter.idle(t + 1_000 * MS)).isTrue();
        long later = t + 3_600_000 * MS;
        assertThat(limiter.tryAcquire(later)).isTrue();
        assertThat(limiter.tryAcquire(later)).isTrue();
        assertThat(limiter.tryAcquire(later))
                .as("an hour idle still holds only the burst")
                .isFalse();
    }

    @Test
    void rate_and_burst_are_checked() {
        assertThatThrownBy(() -> new RateLimiter(0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RateLimiter(1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
