package io.tributary.perf.report;

import io.tributary.perf.measure.SecondLatency;
import io.tributary.perf.measure.TimeSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Renders a {@link RunResult} as one self-contained HTML page: summary tables and inline SVG charts. */
public final class HtmlReport {

    static final String STYLE = "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:"
            + "980px}table{border-collapse:collapse;margin:8px 0 18px}td,th{border:1px solid #ccc;padding:3px 9px;"
            + "text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}"
            + ".chart{display:block;margin:10px 0 22px}.t{font:bold 13px sans-serif}.a{font:11px sans-serif;"
            + "fill:#444}.l{font:11px sans-serif}.ax{stroke:#444}.g{stroke:#e4e4e4}.warn{color:#a40}"
            + "pre{background:#f7f7f7;padding:10px;overflow:auto}";

    private HtmlReport() {}

    public static String render(RunResult r) {
        StringBuilder html = new StringBuilder("<!DOCTYPE html><html><head><meta charset='utf-8'><title>")
                .append(Html.escape(r.scenario() + " — " + label(r)))
                .append("</title><style>")
                .append(STYLE)
                .append("</style></head><body>");
        html.append("<h1>")
                .append(Html.escape(r.scenario()))
                .append(" — ")
                .append(Html.escape(label(r)))
                .append("</h1><p>")
                .append(Html.escape(r.description()))
                .append("</p>");
        html.append(runTable(r));
        appendWarnings(html, r);
        appendSummary(html, r);
        html.append(latencyTable(r));
        html.append("<h2>Charts</h2>");
        appendLatencyCharts(html, r);
        appendConnectionCharts(html, r);
        if (!r.broker().processes().isEmpty()) {
            appendBrokerSection(html, r);
        }
        appendConnectionFailures(html, r);
        html.append("<h2>Scenario</h2><pre>")
                .append(Html.escape(r.scenarioText()))
                .append("</pre>");
        return html.append("</body></html>").toString();
    }

    /** The facts of the run: where, who, when, on what machine. */
    private static String runTable(RunResult r) {
        return table(List.of(
                row("target", String.join(", ", r.targets())),
                row("role", r.role()),
                row("run id", r.runId()),
                row("started", r.startedAt()),
                row("elapsed / measured", fmt(r.elapsedSeconds()) + " s / " + fmt(r.measuredSeconds()) + " s"),
                row(
                        "machine",
                        r.machine().cores() + " cores, " + gib(r.machine().memoryBytes()) + ", "
                                + r.machine().kernel() + ", " + r.machine().jdk() + ", Netty "
                                + r.machine().netty()
                                + (r.machine().epoll() ? " (epoll)" : " (NIO)")),
                row(
                        "load average (1 min) start / end",
                        fmt(r.machine().loadAverageStart()) + " / "
                                + fmt(r.machine().loadAverageEnd()))));
    }

    private static void appendWarnings(StringBuilder html, RunResult r) {
        if (!r.warnings().isEmpty()) {
            html.append("<h2>Warnings</h2><ul>");
            r.warnings()
                    .forEach(w -> html.append("<li class='warn'>")
                            .append(Html.escape(w))
                            .append("</li>"));
            html.append("</ul>");
        }
    }

    /** The same rows as the text summary, so the page and the console never disagree. */
    private static void appendSummary(StringBuilder html, RunResult r) {
        html.append("<h2>Summary</h2><table><tr><th>measure</th><th>value</th></tr>");
        for (String[] line : TextSummary.rows(r)) {
            html.append("<tr><td>")
                    .append(Html.escape(line[0]))
                    .append("</td><td>")
                    .append(Html.escape(line[1]))
                    .append("</td></tr>");
        }
        html.append("</table>");
    }

    /** Throughput, then the latency charts; the by-send-second chart and the stalls only when they were recorded. */
    private static void appendLatencyCharts(StringBuilder html, RunResult r) {
        List<TimeSample> t = r.timeline();
        html.append(SvgChart.lines(
                "Throughput (PUBLISH packets per second)",
                "seconds",
                "msg/s",
                List.of(
                        series("sent", "#1f77b4", t, TimeSample::sentRate),
                        series("received", "#2ca02c", t, TimeSample::receivedRate),
                        series("acknowledged", "#ff7f0e", t, TimeSample::ackedRate))));
        html.append(SvgChart.bars(
                "End-to-end latency percentiles (measured window)",
                "ms",
                new String[] {"p50", "p90", "p99", "p99.9", "max"},
                values(r.endToEnd()),
                "#2ca02c"));
        List<SvgChart.Series> spectra = new ArrayList<>();
        LatencySpectra.of(r, LatencySpectra.Kind.END_TO_END, "end to end", "#2ca02c")
                .ifPresent(spectra::add);
        LatencySpectra.of(r, LatencySpectra.Kind.PUBLISH_ACK, "publish → ack", "#ff7f0e")
                .ifPresent(spectra::add);
        LatencySpectra.of(r, LatencySpectra.Kind.CONNECT, "connect", "#9467bd").ifPresent(spectra::add);
        html.append(LatencySpectra.chart("Latency by percentile (both axes logarithmic)", spectra));
        html.append(SvgChart.lines(
                "End-to-end latency per second (by arrival)",
                "seconds",
                "ms",
                List.of(
                        series("p50", "#2ca02c", t, TimeSample::p50Millis),
                        series("p99", "#d62728", t, TimeSample::p99Millis))));
        if (!r.latencyBySendSecond().isEmpty()) {
            html.append(SvgChart.lines(
                    "Highest end-to-end latency of each second (by send time)",
                    "seconds of the measured window",
                    "ms",
                    List.of(
                            StallReport.series("max", "#d62728", r.latencyBySendSecond(), SecondLatency::maxMillis),
                            StallReport.series("p99", "#ff7f0e", r.latencyBySendSecond(), SecondLatency::p99Millis),
                            StallReport.series("p50", "#2ca02c", r.latencyBySendSecond(), SecondLatency::p50Millis),
                            StallReport.thresholdLine(r, "#7f7f7f"))));
            html.append("<h2>Stalls</h2>").append(StallReport.html(r));
        }
    }

    private static void appendConnectionCharts(StringBuilder html, RunResult r) {
        List<TimeSample> t = r.timeline();
        html.append(SvgChart.bars(
                "Connect latency percentiles (TCP + TLS + CONNECT/CONNACK)",
                "ms",
                new String[] {"p50", "p90", "p99", "p99.9", "max"},
                values(r.connect()),
                "#9467bd"));
        html.append(SvgChart.lines(
                "Connections",
                "seconds",
                "connections",
                List.of(
                        series("open", "#9467bd", t, TimeSample::connected),
                        series("new per second", "#8c564b", t, TimeSample::connectRate))));
    }

    /** Only for runs that sampled broker processes: their memory and CPU over time, and a table per process. */
    private static void appendBrokerSection(StringBuilder html, RunResult r) {
        List<TimeSample> t = r.timeline();
        html.append(SvgChart.lines(
                "Broker resident memory (" + r.broker().processes().size() + " processes)",
                "seconds",
                "MiB",
                List.of(series("RSS", "#d62728", t, s -> s.brokerRssBytes() / 1048576.0))));
        html.append(SvgChart.lines(
                "CPU (100% = one core)",
                "seconds",
                "%",
                List.of(
                        series("broker", "#d62728", t, TimeSample::brokerCpu),
                        series("load generator", "#7f7f7f", t, TimeSample::generatorCpu))));
        html.append("<h2>Broker processes</h2><table><tr><th>process</th><th>CPU avg (loaded)</th>"
                + "<th>RSS before</th><th>RSS loaded</th></tr>");
        for (RunResult.ProcessFigures p : r.broker().perProcess()) {
            html.append("<tr><td>")
                    .append(Html.escape(p.process()))
                    .append("</td><td>")
                    .append(fmt(p.cpuAverage()))
                    .append(" %</td><td>")
                    .append(TextSummary.mib(p.rssBaseline()))
                    .append("</td><td>")
                    .append(TextSummary.mib(p.rssLoaded()))
                    .append("</td></tr>");
        }
        html.append("</table>");
    }

    private static void appendConnectionFailures(StringBuilder html, RunResult r) {
        Map<String, Long> reasons = r.connections().failureReasons();
        if (!reasons.isEmpty()) {
            html.append("<h2>Connection failures</h2><table><tr><th>reason</th><th>count</th></tr>");
            reasons.forEach((k, v) -> html.append("<tr><td>")
                    .append(Html.escape(k))
                    .append("</td><td>")
                    .append(v)
                    .append("</td></tr>"));
            html.append("</table>");
        }
    }

    private static String latencyTable(RunResult r) {
        StringBuilder out = new StringBuilder("<table><tr><th>latency (ms)</th><th>count</th><th>p50</th><th>p90</th>"
                + "<th>p99</th><th>p99.9</th><th>max</th></tr>");
        latencyRow(out, "end to end", r.endToEnd());
        latencyRow(out, "publish → ack", r.publishAck());
        latencyRow(out, "connect", r.connect());
        return out.append("</table>").toString();
    }

    private static void latencyRow(StringBuilder out, String name, RunResult.Percentiles p) {
        out.append("<tr><td>")
                .append(name)
                .append("</td><td>")
                .append(p.count())
                .append("</td>");
        for (double v : values(p)) {
            out.append("<td>").append(fmt(v)).append("</td>");
        }
        out.append("</tr>");
    }

    private static double[] values(RunResult.Percentiles p) {
        return new double[] {p.p50(), p.p90(), p.p99(), p.p999(), p.max()};
    }

    static SvgChart.Series series(
            String name, String color, List<TimeSample> samples, ToDoubleFunction<TimeSample> value) {
        double[] x = new double[samples.size()];
        double[] y = new double[samples.size()];
        for (int i = 0; i < samples.size(); i++) {
            x[i] = samples.get(i).second();
            y[i] = value.applyAsDouble(samples.get(i));
        }
        return new SvgChart.Series(name, color, x, y);
    }

    private static String table(List<String> rows) {
        return "<table>" + String.join("", rows) + "</table>";
    }

    private static String row(String key, String value) {
        return "<tr><th>" + Html.escape(key) + "</th><td>" + Html.escape(value) + "</td></tr>";
    }

    private static String label(RunResult r) {
        return r.label() == null || r.label().isEmpty() ? String.join(", ", r.targets()) : r.label();
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.2f", v);
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
}
