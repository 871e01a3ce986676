package io.tributary.perf.report;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** Log-scale percentile lines of a result's recorded latencies (the exact HdrHistograms, not the summary figures). */
final class LatencySpectra {

    /** One kind of latency a run records, with how to find its histogram in a result. */
    enum Kind {
        END_TO_END("end to end", RunResult.Histograms::endToEnd),
        PUBLISH_ACK("publish → ack", RunResult.Histograms::publishAck),
        CONNECT("connect", RunResult.Histograms::connect);

        final String title;
        private final Function<RunResult.Histograms, String> encoded;

        Kind(String title, Function<RunResult.Histograms, String> encoded) {
            this.title = title;
            this.encoded = encoded;
        }
    }

    private LatencySpectra() {}

    /** The line of {@code kind} in {@code result}, or empty when it recorded none. */
    static Optional<SvgChart.Series> of(RunResult result, Kind kind, String name, String color) {
        if (result.histograms() == null) {
            return Optional.empty();
        }
        double[][] points = HistogramCodec.spectrum(HistogramCodec.decode(kind.encoded.apply(result.histograms())));
        return points[0].length == 0
                ? Optional.empty()
                : Optional.of(new SvgChart.Series(name, color, points[0], points[1]));
    }

    /** The chart of {@code lines}, or nothing when there are none. */
    static String chart(String title, List<SvgChart.Series> lines) {
        return lines.isEmpty() ? "" : SvgChart.percentiles(title, "ms", lines);
    }
}
