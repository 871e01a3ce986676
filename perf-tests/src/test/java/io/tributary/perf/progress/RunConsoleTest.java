package io.tributary.perf.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.perf.measure.TimeSample;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RunConsoleTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private static Progress progress(String phase, double elapsed, double left) {
        TimeSample sample = new TimeSample(elapsed, 0, phase, 11, 0, 240, 600, 120, 0.9, 3.1, 4.2, 12, 64L << 20, 30);
        return new Progress(phase, elapsed, left, 11, 11, 0, 0, 5_400, 13_200, 0, 0, true, sample);
    }

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void on_a_terminal_one_line_is_redrawn_in_place_and_cut_to_the_width() {
        RunConsole console = RunConsole.of(out, true, 100, false, ProgressContext.SINGLE);
        console.progress(progress("measure", 12, 18));
        console.progress(progress("measure", 13, 17));
        console.line("WARNING: something");
        console.progress(progress("drain", 30, 0));
        console.done();

        String text = printed();
        assertThat(text).startsWith("\rmeasure    [########------------]  40% 0:12 elapsed, 0:18 left");
        assertThat(text).contains("\rmeasure    [#########-----------]  43% 0:13 elapsed, 0:17 left");
        // The message goes on its own line above the redrawn progress.
        assertThat(text).contains("\r\u001b[KWARNING: something\n");
        assertThat(text)
                .contains("\rdrain      [####################] 100% 0:30 elapsed, 0:00 left | conn 11/11 | sent")
                .endsWith("\u001b[K\n");
        // Only the message and the final line end lines; updates overwrite the line.
        assertThat(text.chars().filter(c -> c == '\n').count()).isEqualTo(2);
        for (String drawn : text.split("[\r\n]")) {
            assertThat(drawn.replace("\u001b[K", "").replace("\n", "").length()).isLessThan(100);
        }
    }

    @Test
    void elsewhere_each_tick_is_a_plain_line_with_phase_elapsed_time_left_connections_and_messages() {
        RunConsole console = RunConsole.of(out, false, 60, false, ProgressContext.SINGLE);
        console.progress(progress("measure", 12, 18));
        console.progress(progress("measure", 13, 17));
        console.done();

        assertThat(printed()).doesNotContain("\r").hasLineCount(2);
        assertThat(printed().lines().findFirst().orElseThrow())
                .startsWith("[  12s] measure     40% 0:18 left | ")
                .contains(
                        "conn 11/11 (+0/s, ready 11, failed 0, lost 0)",
                        "sent 5400, received 13200",
                        "pub 240/s recv 600/s ack 120/s",
                        "e2e p50 0.9 p99 3.1 max 4.2 ms",
                        "broker cpu 12% rss 64 MiB",
                        "gen cpu 30%");
    }

    @Test
    void quiet_prints_messages_but_no_progress() {
        RunConsole console = RunConsole.of(out, true, 80, true, ProgressContext.SINGLE);
        console.progress(progress("measure", 12, 18));
        console.line("WARNING: something");
        console.done();

        assertThat(printed()).isEqualTo("WARNING: something\n");
    }

    @Test
    void a_compare_run_counts_the_runs_after_it_in_the_time_left() {
        RunConsole console = RunConsole.of(out, false, 80, false, new ProgressContext("compare 1/2 tributary", 30));
        console.progress(progress("measure", 12, 18));

        assertThat(printed()).startsWith("compare 1/2 tributary: [  12s] measure     20% 0:48 left | ");
    }

    @Test
    void long_runs_show_hours() {
        assertThat(ProgressLine.clock(3_723)).isEqualTo("1:02:03");
        assertThat(ProgressLine.clock(59.6)).isEqualTo("1:00");
    }
}
