package io.tributary.perf.compare;

import io.tributary.perf.report.CompareReport;
import io.tributary.perf.report.RunResult;
import io.tributary.perf.report.StallReport;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The side-by-side table of {@code compare}: the same scenario against two targets, each figure of A, of B, and
 * A / B. Whether higher or lower is better is stated per row, so a ratio is never read the wrong way round.
 */
public final class CompareRun {

    /** One compared figure; NaN = that side measured nothing here (e.g. no delivery, so no latency). */
    public record Row(String measure, String better, double a, double b) {

        public double ratio() {
            if (Double.isNaN(a) || Double.isNaN(b)) {
                return Double.NaN;
            }
            return b == 0 ? (a == 0 ? 1 : Double.POSITIVE_INFINITY) : a / b;
        }
    }

    private CompareRun() {}

    public static List<Row> rows(RunResult a, RunResult b) {
        List<Row> rows = new ArrayList<>();
        addConnectionRows(rows, a, b);
        if (a.offeredRate() > 0) {
            addMessageRows(rows, a, b);
        }
        if (!a.broker().processes().isEmpty() && !b.broker().processes().isEmpty()) {
            addBrokerRows(rows, a, b);
        }
        add(rows, "load generator CPU avg (%)", "-", a, b, RunResult::generatorCpuAverage);
        return rows;
    }

    private static void addConnectionRows(List<Row> rows, RunResult a, RunResult b) {
        add(rows, "connections ready", "higher", a, b, r -> r.connections().established());
        add(
                rows,
                "connect ramp achieved (conn/s)",
                "higher",
                a,
                b,
                r -> r.connections().achievedRampRate());
        add(
                rows,
                "connect latency p50 (ms)",
                "lower",
                a,
                b,
                r -> measured(r.connect(), r.connect().p50()));
        add(
                rows,
                "connect latency p99 (ms)",
                "lower",
                a,
                b,
                r -> measured(r.connect(), r.connect().p99()));
    }

    /** Only when A offered a message rate: a connect-only scenario has no throughput, loss or latency to compare. */
    private static void addMessageRows(List<Row> rows, RunResult a, RunResult b) {
        add(rows, "throughput in (msg/s)", "higher", a, b, r -> r.messages().throughputIn());
        add(rows, "throughput out (msg/s)", "higher", a, b, r -> r.messages().throughputOut());
        add(
                rows,
                "lost messages",
                "lower",
                a,
                b,
                r -> r.messages().lossKnown() ? r.messages().lost() : Double.NaN);
        add(rows, "duplicated messages", "lower", a, b, r -> r.messages().duplicates());
        add(
                rows,
                "e2e latency p50 (ms)",
                "lower",
                a,
                b,
                r -> measured(r.endToEnd(), r.endToEnd().p50()));
        add(
                rows,
                "e2e latency p99 (ms)",
                "lower",
                a,
                b,
                r -> measured(r.endToEnd(), r.endToEnd().p99()));
        add(
                rows,
                "e2e latency p99.9 (ms)",
                "lower",
                a,
                b,
                r -> measured(r.endToEnd(), r.endToEnd().p999()));
        add(
                rows,
                "e2e latency max (ms)",
                "lower",
                a,
                b,
                r -> measured(r.endToEnd(), r.endToEnd().max()));
        add(
                rows,
                "stalled seconds (e2e max > " + num(a.stallThresholdMillis()) + " ms)",
                "lower",
                a,
                b,
                r -> r.latencyBySendSecond().isEmpty()
                        ? Double.NaN
                        : StallReport.stalls(r.latencyBySendSecond(), a.stallThresholdMillis())
                                .size());
    }

    /** Only when both sides sampled broker processes; one side's figures alone compare with nothing. */
    private static void addBrokerRows(List<Row> rows, RunResult a, RunResult b) {
        add(rows, "broker CPU avg (% of a core)", "lower", a, b, r -> r.broker().cpuAverage());
        add(rows, "broker RSS loaded (MiB)", "lower", a, b, r -> r.broker().rssLoaded() / 1048576.0);
        add(
                rows,
                "broker RSS per connection (bytes)",
                "lower",
                a,
                b,
                r -> r.broker().connectionsAtLoaded() > 0 ? r.broker().bytesPerConnection() : Double.NaN);
    }

    public static void print(String labelA, String labelB, List<Row> rows, PrintStream out) {
        out.printf(
                Locale.ROOT, "%-36s %14s %14s %10s  %s%n", "measure", labelA, labelB, labelA + "/" + labelB, "better");
        for (Row row : rows) {
            out.printf(
                    Locale.ROOT,
                    "%-36s %14s %14s %10s  %s%n",
                    row.measure(),
                    num(row.a()),
                    num(row.b()),
                    ratio(row),
                    row.better());
        }
    }

    /** The rows as the HTML report shows them, figures formatted as {@link #print} prints them. */
    public static List<CompareReport.Row> reportRows(List<Row> rows) {
        return rows.stream()
                .map(r -> new CompareReport.Row(r.measure(), r.better(), num(r.a()), num(r.b()), ratio(r)))
                .toList();
    }

    private static String ratio(Row row) {
        return Double.isNaN(row.ratio())
                ? "n/a"
                : Double.isInfinite(row.ratio()) ? "inf" : String.format(Locale.ROOT, "%.2f", row.ratio());
    }

    private static void add(
            List<Row> rows, String name, String better, RunResult a, RunResult b, ToDoubleFunction<RunResult> f) {
        rows.add(new Row(name, better, f.applyAsDouble(a), f.applyAsDouble(b)));
    }

    private static double measured(RunResult.Percentiles p, double value) {
        return p.count() == 0 ? Double.NaN : value;
    }

    private static String num(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 100 || v == Math.rint(v) ? "%.0f" : "%.2f", v);
    }
}
