package io.tributary.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.perf.MoquetteBroker;
import io.tributary.perf.report.ResultFiles;
import io.tributary.perf.report.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code perf run} and {@code perf compare} as a user types them, against Moquette on an ephemeral port: exit code,
 * progress with time left, and the files written (JSON result, HTML report, HdrHistogram logs that add up to it).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PerfCliEndToEndTest {

    private static final String SCENARIO = """
            name: cli
            warm-up: 1s
            duration: 2s
            drain: 2s
            targets: [127.0.0.1:1]
            subscribers:
              - {name: s, count: 2, filter: "cli/{run}/#", qos: 1, ramp: 100}
            publishers:
              - {name: p, count: 2, topic: "cli/{run}/{n}", qos: 1, rate: 20, ramp: 100}
            """;

    private static MoquetteBroker broker;

    @TempDir
    static Path dataDir;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = MoquetteBroker.start(dataDir);
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.stop();
        }
    }

    private static String target() {
        return "127.0.0.1:" + broker.port();
    }

    @Test
    void run_writes_the_result_its_report_and_latency_logs_that_add_up_to_it(@TempDir Path dir) throws Exception {
        Path scenario = Files.writeString(dir.resolve("cli.yaml"), SCENARIO);
        Path json = dir.resolve("out/cli-result.json");

        CliRun r = CliRun.of(
                "run", scenario.toString(), "--target", target(), "--run-id", "cli1", "--out-file", json.toString());

        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        RunResult result = ResultFiles.read(json);
        // Before the progress lines' "conn 4/4": the embedded Moquette sometimes refuses one of the four CONNECTs.
        assumeBrokerKeptEveryConnection(result);
        assertThat(dir.resolve("out/cli-result.html")).isRegularFile();
        assertThat(r.out())
                .contains(
                        "result: " + json,
                        "latency logs (HdrHistogram, microseconds): " + dir.resolve("out/cli-result.e2e.hlog"));
        // Plain progress lines (not a terminal): phase, time left, connections and messages so far.
        assertThat(r.out())
                .containsPattern("\\[ *\\ds] measure +\\d+% 0:0\\d left \\| conn 4/4 .* sent \\d+," + " received \\d+");
        assertThat(r.out()).doesNotContain("\r");
        assertThat(loggedCount(dir.resolve("out/cli-result.e2e.hlog")))
                .isEqualTo(result.endToEnd().count())
                .isPositive();
        assertThat(loggedCount(dir.resolve("out/cli-result.publish-ack.hlog")))
                .isEqualTo(result.publishAck().count())
                .isPositive();
        assertThat(loggedCount(dir.resolve("out/cli-result.connect.hlog"))).isEqualTo(4);
    }

    @Test
    void quiet_compare_runs_both_sides_without_progress_and_writes_each_side(@TempDir Path dir) throws Exception {
        Path scenario = Files.writeString(dir.resolve("cli.yaml"), SCENARIO);
        Path out = dir.resolve("results");

        CliRun r = CliRun.of(
                "compare",
                scenario.toString(),
                "--target",
                "a=" + target(),
                "--target",
                "b=" + target(),
                "--pause",
                "100ms",
                "--duration",
                "1s",
                "--no-html",
                "--quiet",
                "--out",
                out.toString());

        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        assertThat(r.out())
                .contains("== compare: a", "== compare: b", "== cli: a vs b", "comparison: ")
                .doesNotContain("left |");
        assertThat(out.resolve("compare-cli-a-vs-b.json")).isRegularFile();
        try (Stream<Path> files = Files.list(out)) {
            List<String> names =
                    files.map(p -> p.getFileName().toString()).sorted().toList();
            assertThat(names).filteredOn(n -> n.endsWith(".json")).hasSize(3);
            assertThat(names).filteredOn(n -> n.endsWith(".hlog")).hasSize(6);
            assertThat(names).noneMatch(n -> n.endsWith(".html"));
        }
    }

    @Test
    void compare_progress_names_the_side_and_counts_the_side_still_to_come(@TempDir Path dir) throws Exception {
        Path scenario = Files.writeString(dir.resolve("cli.yaml"), SCENARIO);

        CliRun r = CliRun.of(
                "compare",
                scenario.toString(),
                "--target",
                "a=" + target(),
                "--target",
                "b=" + target(),
                "--pause",
                "100ms",
                "--duration",
                "1s",
                "--out",
                dir.resolve("results").toString());

        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        // Without --no-html: one page with both sides on the same charts.
        assertThat(r.out()).contains("comparison report: ");
        assertThat(Files.readString(dir.resolve("results/compare-cli-a-vs-b.html")))
                .contains("cli: a vs b", "Latency by percentile", "Latency connect", ">a<", ">b<");
        // The first side's estimate includes the whole second side (about 8 s): never under 0:05 left.
        assertThat(r.out())
                .containsPattern("compare 1/2 a: \\[ *\\ds] measure +\\d+% 0:(0[5-9]|[1-9]\\d) left")
                .containsPattern("compare 2/2 b: \\[ *\\ds] measure +\\d+% 0:0[0-4] left");
    }

    private static void assumeBrokerKeptEveryConnection(RunResult r) {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                r.connections().failed() == 0 && r.connections().lost() == 0,
                "Moquette dropped connections in this run " + r.connections().failureReasons());
    }

    private static long loggedCount(Path log) throws Exception {
        HistogramLogReader reader = new HistogramLogReader(log.toFile());
        long total = 0;
        for (Histogram h = (Histogram) reader.nextIntervalHistogram();
                h != null;
                h = (Histogram) reader.nextIntervalHistogram()) {
            total += h.getTotalCount();
        }
        return total;
    }
}
