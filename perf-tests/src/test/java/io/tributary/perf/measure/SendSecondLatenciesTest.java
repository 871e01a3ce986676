package io.tributary.perf.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class SendSecondLatenciesTest {

    private static final long ORIGIN = 1_800_000_000_000_000L + 250_000;
    private static final long S = 1_000_000L;
    private static final long MS = 1_000L;

    @Test
    void each_latency_counts_in_the_second_its_message_was_sent_in_not_the_one_it_arrived_in() {
        SendSecondLatencies l = new SendSecondLatencies();
        l.startAt(ORIGIN);
        // Second 0: 98 quick messages and two held up 400 ms (they arrive during second 1).
        for (int i = 0; i < 98; i++) {
            l.record(ORIGIN + 10L * i * MS, 3 * MS);
        }
        l.record(ORIGIN + 990 * MS, 400 * MS);
        l.record(ORIGIN + 995 * MS, 380 * MS);
        // Second 1: quiet and quick.
        for (int i = 0; i < 50; i++) {
            l.record(ORIGIN + S + 20L * i * MS, 2 * MS);
        }

        List<SecondLatency> series = l.series();

        assertThat(series).hasSize(2);
        SecondLatency first = series.get(0);
        assertThat(first.second()).isZero();
        assertThat(first.epochMillis()).isEqualTo(ORIGIN / 1000);
        assertThat(first.messages()).isEqualTo(100);
        assertThat(first.maxMillis()).isEqualTo(400.0);
        // p50 and p99 have two significant digits, about 1 %.
        assertThat(first.p50Millis()).isCloseTo(3.0, within(0.05));
        assertThat(first.p99Millis()).isBetween(376.0, 400.0);
        assertThat(series.get(1).messages()).isEqualTo(50);
        assertThat(series.get(1).maxMillis()).isEqualTo(2.0);
    }

    @Test
    void the_series_starts_at_the_first_message_and_keeps_the_empty_seconds_after_it() {
        SendSecondLatencies l = new SendSecondLatencies();
        l.startAt(ORIGIN);
        l.record(ORIGIN + 2 * S + 5 * MS, 7 * MS);
        l.record(ORIGIN + 5 * S, 1_234_567);

        List<SecondLatency> series = l.series();

        assertThat(series).extracting(SecondLatency::second).containsExactly(2, 3, 4, 5);
        assertThat(series).extracting(SecondLatency::messages).containsExactly(1L, 0L, 0L, 1L);
        assertThat(series.get(1)).isEqualTo(SecondLatency.empty(3, ORIGIN / 1000 + 3000));
        // The maximum is exact, not a histogram bucket's top.
        assertThat(series.get(3).maxMillis()).isEqualTo(1234.567);
        assertThat(series.get(3).p99Millis()).isLessThanOrEqualTo(1234.567);
    }

    @Test
    void sealed_seconds_keep_their_percentiles_and_still_count_very_late_deliveries() {
        SendSecondLatencies l = new SendSecondLatencies();
        l.startAt(ORIGIN);
        for (int i = 1; i <= 100; i++) {
            l.record(ORIGIN + i * MS, i * MS);
        }
        List<SecondLatency> before = l.series();

        l.seal(ORIGIN + S + SendSecondLatencies.SEAL_AFTER_MICROS + 1);
        assertThat(l.series()).isEqualTo(before);
        // A message of second 0 that took 70 s: counted, and it is that second's maximum now.
        l.record(ORIGIN + 500 * MS, 70 * S);

        SecondLatency sealed = l.series().get(0);
        assertThat(sealed.messages()).isEqualTo(101);
        assertThat(sealed.maxMillis()).isEqualTo(70_000.0);
        assertThat(sealed.p50Millis()).isEqualTo(before.get(0).p50Millis());
    }

    @Test
    void without_an_origin_seconds_are_whole_wall_clock_seconds_from_the_first_message() {
        SendSecondLatencies l = new SendSecondLatencies();
        l.record(ORIGIN + 800 * MS, 5 * MS);
        l.record(ORIGIN + 1_800 * MS, 5 * MS);

        List<SecondLatency> series = l.series();

        assertThat(series).extracting(SecondLatency::second).containsExactly(0, 1);
        assertThat(series.get(0).epochMillis() % 1000).isZero();
        assertThat(l.series().get(1).epochMillis() - series.get(0).epochMillis())
                .isEqualTo(1000);
    }
}
