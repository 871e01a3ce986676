package io.tributary.perf.report;

import io.tributary.perf.measure.SecondLatency;
import io.tributary.perf.measure.TimeSample;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The HTML page of {@code perf compare}: the side-by-side table, then both targets on the same charts (latency by
 * percentile on log scales, one chart per latency kind; the highest latency of each second by send time, delivery
 * rate, connections and broker CPU over time), then each side's stalls.
 */
public final class CompareReport {

    private static final String COLOR_A = "#1f77b4";
    private static final String COLOR_B = "#d62728";

    /** One row of the table: measure, which way is better, A's figure, B's figure, A / B. */
    public record Row(String measure, String better, String a, String b, String ratio) {}

    private CompareReport() {}

    public static String render(RunResult a, RunResult b, String labelA, String labelB, List<Row> rows) {
        String title = a.scenario() + ": " + labelA + " vs " + labelB;
        StringBuilder html = new StringBuilder("<!DOCTYPE html><html><head><meta charset='utf-8'><title>")
                .append(Html.escape(title))
                .append("</title><style>")
                .append(HtmlReport.STYLE)
                .append("</style></head><body><h1>")
                .append(Html.escape(title))
                .append("</h1><p>")
                .append(Html.escape(a.description()))
                .append("</p>");
        html.append("<table><tr><th>measure</th><th>better</th><th>")
                .append(Html.escape(labelA))
                .append("</th><th>")
                .append(Html.escape(labelB))
                .append("</th><th>")
                .append(Html.escape(labelA + " / " + labelB))
                .append("</th></tr>");
        for (Row row : rows) {
            html.append("<tr><td>")
                    .append(Html.escape(row.measure()))
                    .append("</td><td>")
                    .append(Html.escape(row.better()))
                    .append("</td><td>")
                    .append(Html.escape(row.a()))
                    .append("</td><td>")
                    .append(Html.escape(row.b()))
                    .append("</td><td>")
                    .append(Html.escape(row.ratio()))
                    .append("</td></tr>");
        }
        html.append("</table><h2>Latency by percentile (both axes logarithmic)</h2>");
        for (LatencySpectra.Kind kind : LatencySpectra.Kind.values()) {
            List<SvgChart.Series> lines = new ArrayList<>();
            LatencySpectra.of(a, kind, labelA, COLOR_A).ifPresent(lines::add);
            LatencySpectra.of(b, kind, labelB, COLOR_B).ifPresent(lines::add);
            html.append(LatencySpectra.chart("Latency " + kind.title, lines));
        }
        html.append("<h2>Over time</h2>");
        if (!a.latencyBySendSecond().isEmpty() || !b.latencyBySendSecond().isEmpty()) {
            html.append(SvgChart.lines(
                    "Highest end-to-end latency of each second (by send time)",
                    "seconds of the measured window",
                    "ms",
                    List.of(
                            StallReport.series(labelA, COLOR_A, a.latencyBySendSecond(), SecondLatency::maxMillis),
                            StallReport.series(labelB, COLOR_B, b.latencyBySendSecond(), SecondLatency::maxMillis),
                            StallReport.thresholdLine(a, "#7f7f7f"))));
        }
        html.append(both("Messages received per second", "msg/s", a, b, labelA, labelB, TimeSample::receivedRate));
        html.append(both("Connections open", "connections", a, b, labelA, labelB, TimeSample::connected));
        if (!a.broker().processes().isEmpty() || !b.broker().processes().isEmpty()) {
            html.append(both("Broker CPU (100% = one core)", "%", a, b, labelA, labelB, TimeSample::brokerCpu));
        }
        if (!a.latencyBySendSecond().isEmpty() || !b.latencyBySendSecond().isEmpty()) {
            html.append("<h2>Stalls: ")
                    .append(Html.escape(labelA))
                    .append("</h2>")
                    .append(StallReport.html(a))
                    .append("<h2>Stalls: ")
                    .append(Html.escape(labelB))
                    .append("</h2>")
                    .append(StallReport.html(b));
        }
        return html.append("</body></html>").toString();
    }

    private static String both(
            String title,
            String unit,
            RunResult a,
            RunResult b,
            String labelA,
            String labelB,
            ToDoubleFunction<TimeSample> value) {
        return SvgChart.lines(
                title,
                "seconds",
                unit,
                List.of(
                        HtmlReport.series(labelA, COLOR_A, a.timeline(), value),
                        HtmlReport.series(labelB, COLOR_B, b.timeline(), value)));
    }
}
