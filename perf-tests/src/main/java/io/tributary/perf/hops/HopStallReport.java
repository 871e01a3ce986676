package io.tributary.perf.hops;

import io.tributary.perf.measure.SecondLatency;
import io.tributary.perf.report.StallReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The stall report's second half: for every stalled second, the hops whose histograms grew while its messages were
 * on their way (from the second's first send to its end plus its highest end-to-end latency), the slowest first,
 * each with its samples, p99 and an upper bound of its highest value. The figures are bucket bounds of the
 * services' own histograms, scraped once a second, so they place the time in a hop to within a second and a bucket.
 */
public final class HopStallReport {

    /** Hops shown per stalled second. */
    static final int HOPS_PER_STALL = 6;

    private HopStallReport() {}

    /** The lines for the stalls of {@code series} (a run's latency by send second) at {@code thresholdMillis}. */
    public static List<String> lines(List<SecondLatency> series, double thresholdMillis, HopScraper hops) {
        List<String> lines = new ArrayList<>();
        List<SecondLatency> stalls = StallReport.stalls(series, thresholdMillis);
        if (stalls.isEmpty()) {
            return lines;
        }
        lines.add("hops in the stalled seconds (the services' histograms, scraped each second"
                + (hops.failures() > 0 ? "; " + hops.failures() + " scrapes failed" : "")
                + "):");
        for (SecondLatency s : stalls) {
            long from = s.epochMillis();
            long to = from + 1000 + (long) Math.ceil(s.maxMillis());
            lines.add(String.format(Locale.ROOT, "  second %d (e2e max %.2f ms):", s.second(), s.maxMillis()));
            Map<String, HopWindow> during = hops.during(from, to);
            List<Map.Entry<String, HopWindow>> slowest = during.entrySet().stream()
                    .sorted(Comparator.comparingDouble((Map.Entry<String, HopWindow> e) ->
                                    e.getValue().maxBoundMillis())
                            .reversed())
                    .limit(HOPS_PER_STALL)
                    .toList();
            if (slowest.isEmpty()) {
                lines.add("    no hop recorded a sample then");
            }
            for (Map.Entry<String, HopWindow> e : slowest) {
                HopWindow w = e.getValue();
                lines.add(String.format(
                        Locale.ROOT,
                        "    %-90s n=%-7.0f p99 <= %8.2f ms  max <= %8.2f ms",
                        e.getKey(),
                        w.count(),
                        w.quantileMillis(0.99),
                        w.maxBoundMillis()));
            }
        }
        return lines;
    }
}
