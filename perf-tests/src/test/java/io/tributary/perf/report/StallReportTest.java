package io.tributary.perf.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.perf.compare.CompareRun;
import io.tributary.perf.measure.Ledger;
import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.measure.SecondLatency;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StallReportTest {

    private static SecondLatency second(int n, long messages, double p50, double p99, double max) {
        return new SecondLatency(n, 1_800_000_000_000L + n * 1000L, messages, p50, p99, max);
    }

    /** A 60 s fan-out: a first-second peak, one more stall later, a second exactly at the threshold. */
    private static final List<SecondLatency> SERIES = fanOut();

    private static List<SecondLatency> fanOut() {
        List<SecondLatency> s = new ArrayList<>();
        for (int n = 0; n < 60; n++) {
            s.add(second(n, 1000, 2.5, 4.5, 7));
        }
        s.set(0, second(0, 1000, 12.3, 250.1, 356.2));
        s.set(17, second(17, 1000, 2.6, 30, 50));
        s.set(23, second(23, 1000, 3.1, 61.5, 50.01));
        s.set(40, SecondLatency.empty(40, 1_800_000_040_000L));
        return s;
    }

    private static RunResult result(String label, List<SecondLatency> series, double thresholdMillis) {
        String empty = HistogramCodec.encode(LiveMetrics.newHistogram());
        return new RunResult(
                RunResult.FORMAT,
                "fan-out-in-phase",
                "",
                label,
                "all",
                "r-" + label,
                1.0,
                List.of("127.0.0.1:1883"),
                "2026-01-01T00:00:00Z",
                70,
                60,
                1000,
                new RunResult.Machine(2, 1L << 34, "Linux", "JDK", "4.2", true, 0.5, 0.7),
                new RunResult.Connections(40, 40, 40, 40, 0, 0, 1, 40, Map.of()),
                new RunResult.Messages(
                        60_000, 60_000, 0, 0, 0, 59_000, 59_000, 59_000, 0, 0, 0, 0, 400, 0, true, 1000, 19_000),
                new RunResult.Percentiles(59_000, 3, 2.5, 3.5, 4.5, 250, 356.2),
                RunResult.Percentiles.NONE,
                RunResult.Percentiles.NONE,
                RunResult.Broker.NONE,
                10,
                List.of(),
                List.of(),
                series,
                thresholdMillis,
                new RunResult.Histograms(empty, empty, empty),
                new Ledger(List.of(), new long[0]),
                true,
                true,
                "name: fan-out-in-phase");
    }

    @Test
    void a_stall_is_a_second_with_messages_whose_max_passes_the_threshold() {
        assertThat(StallReport.stalls(SERIES, 50))
                .extracting(SecondLatency::second)
                .containsExactly(0, 23);
        assertThat(StallReport.stalls(SERIES, 5)).hasSize(59);
        assertThat(StallReport.stalls(SERIES, 400)).isEmpty();
        assertThat(StallReport.worst(SERIES)).contains(SERIES.get(0));
        assertThat(StallReport.worst(List.of(SecondLatency.empty(0, 0)))).isEmpty();
    }

    @Test
    void the_text_summary_names_the_worst_second_and_lists_each_stall() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        TextSummary.print(result("tributary", SERIES, 50), new PrintStream(out, true, StandardCharsets.UTF_8));

        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text)
                .contains("highest e2e latency of a second (by send time)", "356.20 ms in second 0 (1000 messages)")
                .contains("stalls (seconds with an e2e max > 50.00 ms)", "2 of 59 seconds")
                .contains("  second   messages     p50 ms     p99 ms     max ms")
                .contains("       0       1000      12.30     250.10     356.20")
                .contains("      23       1000       3.10      61.50      50.01")
                .doesNotContain("      17       1000");
        // Another threshold, another list: report --stall-threshold re-reads the same series.
        ByteArrayOutputStream strict = new ByteArrayOutputStream();
        TextSummary.print(
                result("tributary", SERIES, 50).withStallThreshold(6),
                new PrintStream(strict, true, StandardCharsets.UTF_8));
        assertThat(strict.toString(StandardCharsets.UTF_8))
                .contains("59 of 59 seconds", "(the 30 worst of 59; the HTML report lists all)");
    }

    @Test
    void the_html_report_and_the_compare_page_chart_the_max_of_each_second_and_table_the_stalls() {
        RunResult tributary = result("tributary", SERIES, 50);
        List<SecondLatency> quiet = new ArrayList<>();
        for (int n = 0; n < 60; n++) {
            quiet.add(second(n, 1000, 2.5, 4.5, 8));
        }
        RunResult mosquitto = result("mosquitto", quiet, 50);

        String html = HtmlReport.render(tributary);
        assertThat(html)
                .contains("Highest end-to-end latency of each second (by send time)", "threshold 50.00 ms")
                .contains("<h2>Stalls</h2>", "2 of 59 seconds")
                .contains("<tr><td>23</td><td>1000</td><td>3.10</td><td>61.50</td><td>50.01</td></tr>");
        String page = CompareReport.render(
                tributary,
                mosquitto,
                "tributary",
                "mosquitto",
                CompareRun.reportRows(CompareRun.rows(tributary, mosquitto)));
        assertThat(page)
                .contains("Highest end-to-end latency of each second (by send time)")
                .contains("<h2>Stalls: tributary</h2>", "<h2>Stalls: mosquitto</h2>", "0 of 60 seconds")
                .contains("stalled seconds (e2e max &gt; 50 ms)");
        assertThat(CompareRun.rows(tributary, mosquitto))
                .filteredOn(r -> r.measure().startsWith("stalled seconds"))
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.a()).isEqualTo(2);
                    assertThat(r.b()).isZero();
                });
    }
}
