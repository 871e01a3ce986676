package io.tributary.perf.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.perf.measure.Ledger;
import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.measure.TimeSample;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Log-scale percentile charts (issue 20): the spectrum taken from a histogram, the chart, and the compare page. */
class PercentileChartTest {

    @Test
    void theSpectrumGoesUpInNinesToTheRarestPercentileTheCountCanTell() {
        Histogram micros = LiveMetrics.newHistogram();
        for (int ms = 1; ms <= 1000; ms++) {
            micros.recordValue(ms * 1000L);
        }
        double[][] s = HistogramCodec.spectrum(micros);
        double[] x = s[0];
        double[] y = s[1];
        assertThat(x[0]).isZero();
        assertThat(x[x.length - 1])
                .as("1,000 values tell three nines (99.9 %%)")
                .isCloseTo(3.0, within());
        assertThat(y[0]).as("the minimum").isCloseTo(1.0, org.assertj.core.data.Offset.offset(0.01));
        int at90 = indexOf(x, 1.0);
        assertThat(y[at90])
                .as("the 90th percentile")
                .isCloseTo(900, org.assertj.core.data.Percentage.withPercentage(1));
        for (int i = 1; i < y.length; i++) {
            assertThat(y[i]).isGreaterThanOrEqualTo(y[i - 1]);
        }
        assertThat(HistogramCodec.spectrum(LiveMetrics.newHistogram())[0]).isEmpty();
    }

    @Test
    void bothAxesAreLogarithmic() {
        SvgChart.Series fast = new SvgChart.Series("fast", "#111", new double[] {0, 1, 2}, new double[] {0.5, 0.8, 2});
        SvgChart.Series slow =
                new SvgChart.Series("slow", "#222", new double[] {0, 1, 2, 3}, new double[] {20, 40, 90, 250});
        String svg = SvgChart.percentiles("Latency", "ms", List.of(fast, slow));

        assertThat(svg).contains(">0%<", ">90%<", ">99%<", ">99.9%<").doesNotContain(">99.99%<");
        // y ticks at every power of ten from below the lowest value to above the highest
        assertThat(svg).contains(">0.10<", ">1<", ">10<", ">100<", ">1000<");
        assertThat(count(svg, "<polyline")).isEqualTo(2);
        // equal ratios are equal distances: 1 → 10 ms spans as many pixels as 10 → 100 ms
        double y1 = tickY(svg, "1");
        double y10 = tickY(svg, "10");
        double y100 = tickY(svg, "100");
        assertThat(y1 - y10).isCloseTo(y10 - y100, within());
        assertThat(SvgChart.ninesLabel(5)).isEqualTo("99.999%");
    }

    @Test
    void theComparePageShowsBothTargetsOnTheSameCharts() {
        RunResult a = result(800, "mosquitto");
        RunResult b = result(40_000, "tributary");
        String html = CompareReport.render(
                a,
                b,
                "mosquitto",
                "tributary",
                List.of(new CompareReport.Row("e2e latency p99 (ms)", "lower", "0.80", "40", "0.02")));

        assertThat(html)
                .contains(
                        "<td>e2e latency p99 (ms)</td>",
                        "mosquitto / tributary",
                        "Latency by percentile",
                        "Latency end to end",
                        "Messages received per second");
        String e2e = html.substring(html.indexOf("Latency end to end"));
        e2e = e2e.substring(0, e2e.indexOf("</svg>"));
        assertThat(count(e2e, "<polyline")).as("one line per target").isEqualTo(2);
        assertThat(e2e).contains(">mosquitto<", ">tributary<");
        assertThat(html).as("a kind neither side recorded has no chart").doesNotContain("Latency connect");
    }

    private static RunResult result(long e2eMicros, String label) {
        Histogram e2e = LiveMetrics.newHistogram();
        for (int i = 1; i <= 100; i++) {
            e2e.recordValue(e2eMicros * i / 50);
        }
        String empty = HistogramCodec.encode(LiveMetrics.newHistogram());
        return new RunResult(
                RunResult.FORMAT,
                "fan-out",
                "",
                label,
                "all",
                "r-" + label,
                1.0,
                List.of("127.0.0.1:1883"),
                "2026-01-01T00:00:00Z",
                10,
                10,
                10,
                new RunResult.Machine(2, 1L << 34, "Linux", "JDK", "4.2", true, 0.5, 0.7),
                new RunResult.Connections(2, 2, 2, 2, 0, 0, 1, 1, Map.of()),
                new RunResult.Messages(100, 100, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0, true, 0, 0),
                HistogramCodec.percentiles(e2e),
                RunResult.Percentiles.NONE,
                RunResult.Percentiles.NONE,
                RunResult.Broker.NONE,
                10,
                List.of(),
                List.of(new TimeSample(0, 1000, "measure", 2, 0, 10, 10, 0, 1, 1, 1, 0, 0, 5)),
                List.of(),
                50,
                new RunResult.Histograms(HistogramCodec.encode(e2e), empty, empty),
                new Ledger(List.of(), new long[0]),
                true,
                true,
                "name: fan-out");
    }

    private static double tickY(String svg, String label) {
        Matcher m = Pattern.compile("y='([0-9.]+)' class='a' text-anchor='end'>" + Pattern.quote(label) + "<")
                .matcher(svg);
        assertThat(m.find()).as("tick " + label).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static int indexOf(double[] values, double wanted) {
        for (int i = 0; i < values.length; i++) {
            if (Math.abs(values[i] - wanted) < 1e-9) {
                return i;
            }
        }
        throw new AssertionError("no " + wanted);
    }

    private static int count(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1;
    }

    private static org.assertj.core.data.Offset<Double> within() {
        return org.assertj.core.data.Offset.offset(1e-6);
    }
}
