package io.tributary.session.will;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class WillTimingTest {

    private static final Instant ENDED = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void publish_time_is_the_end_plus_the_shorter_of_delay_and_expiry() {
        assertThat(WillTiming.publishAt(ENDED, 0, 600)).isEqualTo(ENDED);
        assertThat(WillTiming.publishAt(ENDED, 10, 600)).isEqualTo(ENDED.plusSeconds(10));
        assertThat(WillTiming.publishAt(ENDED, 600, 10)).isEqualTo(ENDED.plusSeconds(10));
        assertThat(WillTiming.publishAt(ENDED, 10, 0xFFFFFFFFL)).isEqualTo(ENDED.plusSeconds(10));
    }

    @Test
    void a_reconnect_cancels_only_a_will_not_yet_due() {
        assertThat(WillTiming.dueAt(ENDED.plusSeconds(1), ENDED)).isFalse();
        assertThat(WillTiming.dueAt(ENDED, ENDED)).isTrue();
        assertThat(WillTiming.dueAt(ENDED.minusMillis(1), ENDED)).isTrue();
        assertThat(WillTiming.dueAt(null, ENDED)).as("connection still live").isFalse();
    }
}
