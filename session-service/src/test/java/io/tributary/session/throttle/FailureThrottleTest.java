package io.tributary.session.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class FailureThrottleTest {

    private static final Duration WINDOW = Duration.ofMinutes(15);

    /** A clock the test moves. */
    private static final class Hand extends Clock {
        Instant now = Instant.parse("2026-12-01T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final Hand clock = new Hand();
    private final FailureThrottle throttle = new FailureThrottle(3, 5, WINDOW, clock);

    @Test
    void aUserNameFromOneAddressIsRefusedAfterItsLimitUntilTheOldestFailureLeavesTheWindow() {
        throttle.failed("admin", "10.0.0.1");
        clock.now = clock.now.plusSeconds(60);
        throttle.failed("admin", "10.0.0.1");
        throttle.failed("admin", "10.0.0.1");
        assertThat(throttle.refusal("admin", "10.0.0.1")).contains(WINDOW.minusSeconds(60));
        assertThat(throttle.refusal("Admin", "10.0.0.1"))
                .as("identities are compared as given")
                .isEmpty();
        assertThat(throttle.refusal("admin", "10.0.0.2")).as("another address").isEmpty();
        assertThat(throttle.refusal("operator", "10.0.0.1"))
                .as("another user name")
                .isEmpty();
        clock.now = clock.now.plus(WINDOW.minusSeconds(60));
        assertThat(throttle.refusal("admin", "10.0.0.1"))
                .as("the first failure left the window")
                .isEmpty();
    }

    @Test
    void oneAddressIsRefusedAfterItsLimitOverAllUserNames() {
        for (int i = 0; i < 5; i++) {
            throttle.failed("user-" + i, "10.0.0.9");
        }
        assertThat(throttle.refusal("someone-else", "10.0.0.9")).contains(WINDOW);
        assertThat(throttle.refusal("someone-else", "10.0.0.8")).isEmpty();
    }

    @Test
    void aSuccessClearsItsUserNameButNotTheAddress() {
        throttle.failed("admin", "10.0.0.1");
        throttle.failed("admin", "10.0.0.1");
        throttle.succeeded("admin", "10.0.0.1");
        throttle.failed("admin", "10.0.0.1");
        throttle.failed("admin", "10.0.0.1");
        assertThat(throttle.refusal("admin", "10.0.0.1"))
                .as("two failures since the success")
                .isEmpty();
        throttle.failed("admin", "10.0.0.1");
        assertThat(throttle.refusal("admin", "10.0.0.1")).isPresent();
        assertThat(throttle.refusal("other", "10.0.0.1"))
                .as("5 failures from the address in all")
                .isPresent();
    }

    @Test
    void madeUpUserNamesCostBoundedMemory() {
        for (int i = 0; i < FailureThrottle.MAX_KEYS * 2; i++) {
            throttle.failed("made-up-" + i, "10.0.1." + (i % 200));
        }
        assertThat(throttle.trackedKeys()).isLessThanOrEqualTo(FailureThrottle.MAX_KEYS);
        // The per-address counts are the most recently used keys, so they survive the eviction.
        assertThat(throttle.refusal("anyone", "10.0.1.7")).isPresent();
    }

    @Test
    void aLimitOfZeroCountsNothingOfItsKind() {
        FailureThrottle identityOnly = new FailureThrottle(2, 0, WINDOW, clock);
        for (int i = 0; i < 50; i++) {
            identityOnly.failed("device-" + i, "10.0.0.5");
        }
        assertThat(identityOnly.refusal("device-50", "10.0.0.5"))
                .as("no per-address count")
                .isEmpty();
        identityOnly.failed("device-50", "10.0.0.5");
        identityOnly.failed("device-50", "10.0.0.5");
        assertThat(identityOnly.refusal("device-50", "10.0.0.5"))
                .as("its own 2 failures")
                .isPresent();

        FailureThrottle off = new FailureThrottle(0, 0, WINDOW, clock);
        for (int i = 0; i < 50; i++) {
            off.failed("device", "10.0.0.5");
        }
        assertThat(off.refusal("device", "10.0.0.5")).isEmpty();
        assertThat(off.trackedKeys()).isZero();
    }
}
