package io.tributary.perf.report;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The headline figures of a result as rows of text: printed at the end of a run and shown atop the report. */
public final class TextSummary {

    private TextSummary() {}

    public static List<String[]> rows(RunResult r) {
        List<String[]> rows = new ArrayList<>();
        RunResult.Connections c = r.connections();
        rows.add(row(
                "connections ready / planned",
                c.established() + " / " + c.planned()
                        + (c.failed() > 0 ? " (" + c.failed() + " failed)" : "")
                        + (c.lost() > 0 ? " (" + c.lost() + " dropped later)" : "")));
        rows.add(row(
                "connect ramp achieved",
                String.format(Locale.ROOT, "%.0f conn/s over %.1f s", c.achievedRampRate(), c.rampSeconds())));
        rows.add(row(
                "connect latency p50 / p99 / max",
                ms(r.connect().p50()) + " / " + ms(r.connect().p99()) + " / "
                        + ms(r.connect().max())));
        if (r.offeredRate() > 0) {
            addMessageRows(rows, r);
        }
        if (!r.broker().processes().isEmpty()) {
            addBrokerRows(rows, r.broker());
        }
        rows.add(row("load generator CPU avg", String.format(Locale.ROOT, "%.0f %%", r.generatorCpuAverage())));
        rows.add(row(
                "machine load average start / end",
                String.format(
                        Locale.ROOT,
                        "%.2f / %.2f (%d cores)",
                        r.machine().loadAverageStart(),
                        r.machine().loadAverageEnd(),
                        r.machine().cores())));
        return rows;
    }

    /** Only for a run that offered messages: throughput, delivery, latency and stalls. */
    private static void addMessageRows(List<String[]> rows, RunResult r) {
        RunResult.Messages m = r.messages();
        rows.add(row("offered publish rate", String.format(Locale.ROOT, "%.0f msg/s", r.offeredRate())));
        rows.add(row(
                "throughput in / out (measured)",
                String.format(Locale.ROOT, "%.0f / %.0f msg/s", m.throughputIn(), m.throughputOut())));
        rows.add(row(
                "sent (measured) / expected / received",
                m.publishedMeasured() + " / " + m.expected() + " / " + m.received()));
        rows.add(row(
                "lost / duplicated / unexpected",
                m.lossKnown()
                        ? m.lost() + " / " + m.duplicates() + " / " + m.unexpected()
                        : "needs both sides: run 'merge' (duplicates so far: " + m.duplicates() + ")"));
        if (m.lossKnown() && m.expected() > 0) {
            rows.add(row("loss ratio", String.format(Locale.ROOT, "%.4f %%", 100.0 * m.lost() / m.expected())));
        }
        if (m.skippedWindowFull() + m.skippedNotWritable() > 0) {
            rows.add(row(
                    "publishes skipped (window full / socket full)",
                    m.skippedWindowFull() + " / " + m.skippedNotWritable()));
        }
        rows.add(row(
                "end-to-end latency p50 / p90 / p99 / p99.9 / max",
                ms(r.endToEnd().p50()) + " / "
                        + ms(r.endToEnd().p90()) + " / " + ms(r.endToEnd().p99()) + " / "
                        + ms(r.endToEnd().p999())
                        + " / " + ms(r.endToEnd().max())));
        StallReport.worst(r.latencyBySendSecond())
                .ifPresent(w -> rows.add(row(
                        "highest e2e latency of a second (by send time)",
                        ms(w.maxMillis()) + " in second " + w.second() + " (" + w.messages() + " messages)")));
        if (!r.latencyBySendSecond().isEmpty()) {
            rows.add(row(
                    "stalls (seconds with an e2e max > " + HtmlReport.fmt(r.stallThresholdMillis()) + " ms)",
                    StallReport.count(r)));
        }
        if (r.publishAck().count() > 0) {
            rows.add(row(
                    "publish → ack latency p50 / p99",
                    ms(r.publishAck().p50()) + " / " + ms(r.publishAck().p99())));
        }
    }

    /** Only for a run that sampled broker processes. */
    private static void addBrokerRows(List<String[]> rows, RunResult.Broker b) {
        rows.add(row(
                "broker CPU avg / peak (100% = 1 core)",
                String.format(Locale.ROOT, "%.0f %% / %.0f %%", b.cpuAverage(), b.cpuPeak())));
        rows.add(row(
                "broker RSS before / loaded / peak",
                mib(b.rssBaseline()) + " / " + mib(b.rssLoaded()) + " / " + mib(b.rssPeak())));
        rows.add(row(
                "broker RSS per connection",
                String.format(
                        Locale.ROOT, "%.0f bytes (%d connections)", b.bytesPerConnection(), b.connectionsAtLoaded())));
    }

    public static void print(RunResult r, PrintStream out) {
        out.println("== " + r.scenario() + " (" + (r.label() == null ? "" : r.label() + ", ")
                + String.join(", ", r.targets()) + ", role " + r.role() + ")");
        for (String[] row : rows(r)) {
            out.printf("  %-52s %s%n", row[0], row[1]);
        }
        StallReport.textLines(r).forEach(line -> out.println("  " + line));
        r.warnings().forEach(w -> out.println("  WARNING: " + w));
    }

    private static String[] row(String key, String value) {
        return new String[] {key, value};
    }

    static String ms(double v) {
        return String.format(Locale.ROOT, "%.2f ms", v);
    }

    static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
    }
}
