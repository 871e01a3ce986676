package io.tributary.transport.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class PerIpRateLimiterTest {

    private static final long MS = 1_000_000L;
    private static final long SWEEP = 10_000 * MS;

    private static InetAddress ip(int n) throws Exception {
        return InetAddress.getByAddress(new byte[] {10, (byte) (n >> 16), (byte) (n >> 8), (byte) n});
    }

    @Test
    void each_address_has_its_own_bucket() throws Exception {
        PerIpRateLimiter limiter = new PerIpRateLimiter(1, 2, 100, SWEEP, 0);
        assertThat(limiter.tryAcquire(ip(1), 0)).isTrue();
        assertThat(limiter.tryAcquire(ip(1), 0)).isTrue();
        assertThat(limiter.tryAcquire(ip(1), 0)).isFalse();
        assertThat(limiter.tryAcquire(ip(2), 0))
                .as("another address is not affected")
                .isTrue();
        assertThat(limiter.tryAcquire(ip(1), 1_000 * MS)).isTrue();
    }

    @Test
    void a_scan_from_many_addresses_never_holds_more_than_the_maximum() throws Exception {
        PerIpRateLimiter limiter = new PerIpRateLimiter(10, 5, 1_000, SWEEP, 0);
        // 100,000 addresses, one connection each, 10 µs apart: a second of scanning.
        for (int i = 0; i < 100_000; i++) {
            limiter.tryAcquire(ip(i), i * 10_000L);
            assertThat(limiter.tracked()).isLessThanOrEqualTo(1_000);
        }
        // Each bucket refills 100 ms after its one connection, so sweeps while full keep making room: only a few
        // addresses (those within the last 100 ms at each full sweep) ever had to go untracked.
        assertThat(limiter.untracked()).isLessThan(100_000);
    }

    @Test
    void refilled_buckets_are_forgotten_at_the_periodic_sweep_and_an_over_rate_one_is_kept() throws Exception {
        PerIpRateLimiter limiter = new PerIpRateLimiter(1, 1, 100, SWEEP, 0);
        for (int i = 0; i < 50; i++) {
            limiter.tryAcquire(ip(i), 0);
        }
        assertThat(limiter.tracked()).isEqualTo(50);
        // An address that keeps connecting every 100 ms is over its rate and stays limited across the sweep.
        InetAddress busy = ip(999);
        for (long t = 0; t < SWEEP + 200 * MS; t += 100 * MS) {
            limiter.tryAcquire(busy, t);
        }
        assertThat(limiter.tracked())
                .as("idle addresses forgotten, the busy one kept")
                .isEqualTo(1);
        assertThat(limiter.tryAcquire(busy, SWEEP + 300 * MS)).isFalse();
    }

    @Test
    void a_table_full_of_active_addresses_lets_new_ones_through_untracked() throws Exception {
        PerIpRateLimiter limiter = new PerIpRateLimiter(1, 1, 10, SWEEP, 0);
        for (int i = 0; i < 10; i++) {
            assertThat(limiter.tryAcquire(ip(i), 0)).isTrue();
        }
        assertThat(limiter.tryAcquire(ip(100), 1)).isTrue();
        assertThat(limiter.untracked()).isEqualTo(1);
        assertThat(limiter.tracked()).isEqualTo(10);
        assertThat(limiter.tryAcquire(ip(3), 2))
                .as("tracked addresses stay limited")
                .isFalse();
    }
}
