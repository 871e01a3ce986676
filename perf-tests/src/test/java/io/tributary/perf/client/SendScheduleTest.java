package io.tributary.perf.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.perf.scenario.PublishPhase;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SendScheduleTest {

    private static final long MS = 1_000_000L;
    private static final long ANCHOR = 5_000 * MS;
    /** When 20 publishers of a group got ready: a ramp spreads them over 190 ms, some before the anchor. */
    private static final long[] READY_AT = new long[20];

    static {
        for (int n = 0; n < READY_AT.length; n++) {
            READY_AT[n] = ANCHOR - 30 * MS + 10L * n * MS + n % 3;
        }
    }

    @Test
    void aligned_publishers_send_at_the_same_instants_whenever_they_started() {
        TreeSet<Long> firstSends = new TreeSet<>();
        for (int n = 0; n < READY_AT.length; n++) {
            SendSchedule s = SendSchedule.of(50, PublishPhase.ALIGNED, ANCHOR, READY_AT[n], n / 20.0);
            assertThat(s.periodNanos()).isEqualTo(20 * MS);
            // On the shared grid, never before the start nor more than one period after it.
            assertThat((s.firstSendNanos() - ANCHOR) % s.periodNanos()).isZero();
            assertThat(s.firstSendNanos()).isGreaterThanOrEqualTo(Math.max(ANCHOR, READY_AT[n]));
            assertThat(s.firstSendNanos() - READY_AT[n])
                    .isLessThanOrEqualTo(Math.max(ANCHOR - READY_AT[n], s.periodNanos()));
            firstSends.add(s.firstSendNanos());
        }
        // Whoever started later joins the grid at its next tick: from then on, every tick is shared by all.
        long lastJoin = firstSends.last();
        Set<Long> ticksAfterAllJoined = new HashSet<>();
        for (int n = 0; n < READY_AT.length; n++) {
            SendSchedule s = SendSchedule.of(50, PublishPhase.ALIGNED, ANCHOR, READY_AT[n], 0.5);
            long k = (lastJoin - s.firstSendNanos()) / s.periodNanos();
            ticksAfterAllJoined.add(s.sendNanos(k + 7));
        }
        assertThat(ticksAfterAllJoined).hasSize(1);
    }

    @Test
    void held_publishers_started_for_a_future_anchor_all_send_their_first_message_at_it() {
        // Without a warm-up the run hands every publisher the measured window's start, a moment ahead.
        long start = READY_AT[READY_AT.length - 1] + 50 * MS;
        for (long now : READY_AT) {
            assertThat(SendSchedule.of(50, PublishPhase.ALIGNED, start, now, 0.5)
                            .firstSendNanos())
                    .isEqualTo(start);
            // Spread ones never start before it either, and within one period of it.
            assertThat(SendSchedule.of(50, PublishPhase.SPREAD, start, now, 0.5).firstSendNanos())
                    .isEqualTo(start + 10 * MS);
        }
    }

    @Test
    void spread_publishers_take_their_own_point_of_the_period() {
        Set<Long> offsets = new HashSet<>();
        for (int n = 0; n < READY_AT.length; n++) {
            long now = ANCHOR + 100 * MS;
            SendSchedule s = SendSchedule.of(50, PublishPhase.SPREAD, ANCHOR, now, n / 20.0);
            assertThat(s.firstSendNanos()).isBetween(now, now + s.periodNanos() - 1);
            offsets.add(s.sendNanos(3) % s.periodNanos());
        }
        assertThat(offsets).hasSize(20);
    }

    @Test
    void slow_and_fast_rates_keep_their_period_with_a_floor_of_ten_milliseconds() {
        assertThat(SendSchedule.of(0.1, PublishPhase.ALIGNED, ANCHOR, ANCHOR, 0).periodNanos())
                .isEqualTo(10_000 * MS);
        assertThat(SendSchedule.of(1_000, PublishPhase.ALIGNED, ANCHOR, ANCHOR, 0)
                        .periodNanos())
                .isEqualTo(SendSchedule.MIN_PERIOD_NANOS);
        assertThat(SendSchedule.of(0.1, PublishPhase.ALIGNED, ANCHOR, ANCHOR + 1, 0)
                        .firstSendNanos())
                .isEqualTo(ANCHOR + 10_000 * MS);
    }
}
