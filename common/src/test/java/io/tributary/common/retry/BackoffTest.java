package io.tributary.common.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void each_failure_in_a_row_waits_twice_as_long_up_to_the_ceiling_and_a_success_starts_again() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofMillis(500));

        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(100));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(200));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(400));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(500));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(500));

        backoff.reset();
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void the_delay_of_the_nth_failure_is_capped_however_many_there_were() {
        Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60));

        assertThat(backoff.delay(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.delay(4)).isEqualTo(Duration.ofSeconds(8));
        assertThat(backoff.delay(7)).isEqualTo(Duration.ofSeconds(60));
        assertThat(backoff.delay(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void a_fixed_backoff_always_waits_the_same() {
        Backoff backoff = Backoff.fixed(Duration.ofMillis(500));

        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(500));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void a_zero_first_wait_or_a_ceiling_below_it_is_refused() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
