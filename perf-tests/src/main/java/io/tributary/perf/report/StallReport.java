package io.tributary.perf.report;

import io.tributary.perf.measure.SecondLatency;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Stalls: the seconds of the measured window whose highest end-to-end latency (by send time) passed the threshold,
 * each with its messages, p50, p99 and max. A percentile over the whole run can hide a stall of one second; a
 * second's maximum cannot.
 */
public final class StallReport {

    public static final double DEFAULT_THRESHOLD_MILLIS = 50;
    /** The text summary lists at most this many (the worst ones); the HTML report and the JSON have them all. */
    static final int MAX_TEXT_ROWS = 30;

    private StallReport() {}

    /** The seconds with at least one message and a maximum above {@code thresholdMillis}, in time order. */
    public static List<SecondLatency> stalls(List<SecondLatency> series, double thresholdMillis) {
        return series.stream()
                .filter(s -> s.messages() > 0 && s.maxMillis() > thresholdMillis)
                .toList();
    }

    /** The second with the highest maximum, if any second had a message. */
    public static Optional<SecondLatency> worst(List<SecondLatency> series) {
        return series.stream().filter(s -> s.messages() > 0).max(Comparator.comparingDouble(SecondLatency::maxMillis));
    }

    /** Seconds of the series that had messages. */
    static long secondsWithMessages(List<SecondLatency> series) {
        return series.stream().filter(s -> s.messages() > 0).count();
    }

    /** "3 of 60 seconds" for the summary. */
    static String count(RunResult r) {
        return stalls(r.latencyBySendSecond(), r.stallThresholdMillis()).size() + " of "
                + secondsWithMessages(r.latencyBySendSecond()) + " seconds";
    }

    static String title(RunResult r) {
        return "stalls: seconds whose highest end-to-end latency (by send time) passed "
                + HtmlReport.fmt(r.stallThresholdMillis()) + " ms";
    }

    /** The stall table as text lines (none when no second stalled), the worst first when cut. */
    static List<String> textLines(RunResult r) {
        List<SecondLatency> stalls = stalls(r.latencyBySendSecond(), r.stallThresholdMillis());
        List<String> lines = new ArrayList<>();
        if (stalls.isEmpty()) {
            return lines;
        }
        lines.add(title(r));
        lines.add(String.format(
                Locale.ROOT, "%8s %10s %10s %10s %10s", "second", "messages", "p50 ms", "p99 ms", "max ms"));
        List<SecondLatency> shown = stalls;
        if (stalls.size() > MAX_TEXT_ROWS) {
            shown = stalls.stream()
                    .sorted(Comparator.comparingDouble(SecondLatency::maxMillis).reversed())
                    .limit(MAX_TEXT_ROWS)
                    .sorted(Comparator.comparingInt(SecondLatency::second))
                    .toList();
        }
        for (SecondLatency s : shown) {
            lines.add(String.format(
                    Locale.ROOT,
                    "%8d %10d %10.2f %10.2f %10.2f",
                    s.second(),
                    s.messages(),
                    s.p50Millis(),
                    s.p99Millis(),
                    s.maxMillis()));
        }
        if (shown.size() < stalls.size()) {
            lines.add("(the " + MAX_TEXT_ROWS + " worst of " + stalls.size() + "; the HTML report lists all)");
        }
        return lines;
    }

    /** The stall table as HTML, or a line saying there was none. */
    static String html(RunResult r) {
        List<SecondLatency> stalls = stalls(r.latencyBySendSecond(), r.stallThresholdMillis());
        StringBuilder html = new StringBuilder("<p>")
                .append(Html.escape(title(r)))
                .append(": ")
                .append(Html.escape(count(r)))
                .append("</p>");
        if (stalls.isEmpty()) {
            return html.toString();
        }
        html.append("<table><tr><th>second</th><th>messages</th><th>p50 (ms)</th><th>p99 (ms)</th>"
                + "<th>max (ms)</th></tr>");
        for (SecondLatency s : stalls) {
            html.append("<tr><td>")
                    .append(s.second())
                    .append("</td><td>")
                    .append(s.messages())
                    .append("</td><td>")
                    .append(HtmlReport.fmt(s.p50Millis()))
                    .append("</td><td>")
                    .append(HtmlReport.fmt(s.p99Millis()))
                    .append("</td><td>")
                    .append(HtmlReport.fmt(s.maxMillis()))
                    .append("</td></tr>");
        }
        return html.append("</table>").toString();
    }

    /** One line of a chart over the series' seconds; seconds without messages are gaps. */
    static SvgChart.Series series(
            String name,
            String color,
            List<SecondLatency> series,
            java.util.function.ToDoubleFunction<SecondLatency> f) {
        double[] x = new double[series.size()];
        double[] y = new double[series.size()];
        for (int i = 0; i < series.size(); i++) {
            x[i] = series.get(i).second();
            y[i] = series.get(i).messages() > 0 ? f.applyAsDouble(series.get(i)) : -1;
        }
        return new SvgChart.Series(name, color, x, y);
    }

    /** The threshold as a flat line over the same seconds, so a stall is seen crossing it. */
    static SvgChart.Series thresholdLine(RunResult r, String color) {
        List<SecondLatency> series = r.latencyBySendSecond();
        double last = series.isEmpty() ? 1 : series.get(series.size() - 1).second();
        return new SvgChart.Series(
                "threshold " + HtmlReport.fmt(r.stallThresholdMillis()) + " ms",
                color,
                new double[] {0, last},
                new double[] {r.stallThresholdMillis(), r.stallThresholdMillis()});
    }
}
