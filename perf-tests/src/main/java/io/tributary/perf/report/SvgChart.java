package io.tributary.perf.report;

import java.util.List;
import java.util.Locale;

/** Inline SVG charts, so the report is one self-contained file with no script or stylesheet to fetch. */
final class SvgChart {

    private static final int WIDTH = 760;
    private static final int HEIGHT = 260;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 34;
    private static final int BOTTOM = 40;

    /** One line; points with a negative y are gaps (no data in that second). */
    record Series(String name, String color, double[] x, double[] y) {}

    private SvgChart() {}

    static String lines(String title, String xLabel, String yLabel, List<Series> series) {
        double xMax = 1;
        double yMax = 0;
        for (Series s : series) {
            for (int i = 0; i < s.x().length; i++) {
                xMax = Math.max(xMax, s.x()[i]);
                yMax = Math.max(yMax, s.y()[i]);
            }
        }
        yMax = niceCeiling(yMax);
        StringBuilder svg = open(title);
        axes(svg, xMax, yMax, xLabel, yLabel);
        int legendX = LEFT;
        for (Series s : series) {
            legendX = legend(svg, s, legendX);
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < s.x().length; i++) {
                if (s.y()[i] < 0) {
                    flush(svg, points, s.color());
                    continue;
                }
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px(s.x()[i], xMax), py(s.y()[i], yMax)));
            }
            flush(svg, points, s.color());
        }
        return svg.append("</svg>").toString();
    }

    /** Horizontal bars, one per label (latency percentiles). */
    static String bars(String title, String unit, String[] labels, double[] values, String color) {
        int rowHeight = 26;
        int height = TOP + labels.length * rowHeight + 10;
        double max = 0;
        for (double v : values) {
            max = Math.max(max, v);
        }
        max = max <= 0 ? 1 : max;
        StringBuilder svg = new StringBuilder(String.format(
                Locale.ROOT,
                "<svg width='%d' height='%d' class='chart'>" + "<text x='%d' y='18' class='t'>%s</text>",
                WIDTH,
                height,
                LEFT,
                Html.escape(title)));
        int barSpace = WIDTH - LEFT - RIGHT - 120;
        for (int i = 0; i < labels.length; i++) {
            int y = TOP + i * rowHeight;
            double w = values[i] / max * barSpace;
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x='%d' y='%d' class='a' text-anchor='end'>%s</text>"
                            + "<rect x='%d' y='%d' width='%.1f' height='16' fill='%s'/>"
                            + "<text x='%.1f' y='%d' class='a'>%s %s</text>",
                    LEFT - 8,
                    y + 12,
                    Html.escape(labels[i]),
                    LEFT,
                    y,
                    Math.max(1, w),
                    color,
                    LEFT + w + 6,
                    y + 12,
                    format(values[i]),
                    unit));
        }
        return svg.append("</svg>").toString();
    }

    /**
     * Latency by percentile with both axes logarithmic, as HdrHistogram plots it: x in "nines" ({@code 90 %},
     * {@code 99 %}, {@code 99.9 %}: each tick ten times rarer), y in powers of ten, so the median and the tail of
     * several runs are readable on one chart. Each series' x are nines ({@link HistogramCodec#spectrum}), y > 0.
     */
    static String percentiles(String title, String unit, List<Series> series) {
        double nines = 2;
        double low = Double.MAX_VALUE;
        double high = 0;
        for (Series s : series) {
            for (int i = 0; i < s.x().length; i++) {
                nines = Math.max(nines, Math.ceil(s.x()[i] - 1e-9));
                low = Math.min(low, s.y()[i]);
                high = Math.max(high, s.y()[i]);
            }
        }
        int minPower = high == 0 ? 0 : (int) Math.floor(Math.log10(low));
        int maxPower = high == 0 ? 1 : Math.max(minPower + 1, (int) Math.ceil(Math.log10(high)));
        StringBuilder svg = open(title);
        int bottom = HEIGHT - BOTTOM;
        axisLines(svg);
        for (int power = minPower; power <= maxPower; power++) {
            double y = logY(Math.pow(10, power), minPower, maxPower);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' class='g'/>"
                            + "<text x='%d' y='%.1f' class='a' text-anchor='end'>%s</text>",
                    LEFT,
                    y,
                    WIDTH - RIGHT,
                    y,
                    LEFT - 6,
                    y + 4,
                    format(Math.pow(10, power))));
        }
        for (int n = 0; n <= nines; n++) {
            double x = px(n, nines);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' class='g'/>"
                            + "<text x='%.1f' y='%d' class='a' text-anchor='middle'>%s</text>",
                    x,
                    TOP,
                    x,
                    bottom,
                    x,
                    bottom + 16,
                    ninesLabel(n)));
        }
        svg.append(String.format(
                Locale.ROOT,
                "<text x='%d' y='%d' class='a' text-anchor='middle'>percentile" + " (log scale)</text>",
                (LEFT + WIDTH - RIGHT) / 2,
                HEIGHT - 6));
        svg.append(String.format(
                Locale.ROOT,
                "<text x='14' y='%d' class='a' text-anchor='middle' transform='rotate(-90 14 %d)'>%s (log)</text>",
                (TOP + bottom) / 2,
                (TOP + bottom) / 2,
                Html.escape(unit)));
        int legendX = LEFT;
        for (Series s : series) {
            legendX = legend(svg, s, legendX);
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < s.x().length; i++) {
                points.append(String.format(
                        Locale.ROOT, "%.1f,%.1f ", px(s.x()[i], nines), logY(s.y()[i], minPower, maxPower)));
            }
            flush(svg, points, s.color());
        }
        return svg.append("</svg>").toString();
    }

    /** 0 → "0%", 1 → "90%", 2 → "99%", 3 → "99.9%" ... */
    static String ninesLabel(int nines) {
        return switch (nines) {
            case 0 -> "0%";
            case 1 -> "90%";
            case 2 -> "99%";
            default -> "99." + "9".repeat(nines - 2) + "%";
        };
    }

    private static double logY(double value, int minPower, int maxPower) {
        double share = (Math.log10(value) - minPower) / (maxPower - minPower);
        return HEIGHT - BOTTOM - Math.max(0, Math.min(1, share)) * (HEIGHT - BOTTOM - TOP);
    }

    /** The series' legend entry at {@code x}; returns where the next one goes. */
    private static int legend(StringBuilder svg, Series s, int x) {
        svg.append(String.format(
                Locale.ROOT,
                "<rect x='%d' y='%d' width='12' height='4' fill='%s'/><text x='%d' y='%d' class='l'>%s</text>",
                x,
                TOP - 12,
                s.color(),
                x + 16,
                TOP - 8,
                Html.escape(s.name())));
        return x + 30 + s.name().length() * 7;
    }

    private static void axisLines(StringBuilder svg) {
        int bottom = HEIGHT - BOTTOM;
        svg.append(String.format(
                Locale.ROOT,
                "<line x1='%d' y1='%d' x2='%d' y2='%d' class='ax'/><line x1='%d' y1='%d' x2='%d' y2='%d' class='ax'/>",
                LEFT,
                TOP,
                LEFT,
                bottom,
                LEFT,
                bottom,
                WIDTH - RIGHT,
                bottom));
    }

    private static StringBuilder open(String title) {
        return new StringBuilder(String.format(
                Locale.ROOT,
                "<svg width='%d' height='%d' class='chart'>" + "<text x='%d' y='14' class='t'>%s</text>",
                WIDTH,
                HEIGHT,
                LEFT,
                Html.escape(title)));
    }

    private static void axes(StringBuilder svg, double xMax, double yMax, String xLabel, String yLabel) {
        int bottom = HEIGHT - BOTTOM;
        axisLines(svg);
        for (int i = 0; i <= 4; i++) {
            double value = yMax * i / 4;
            double y = py(value, yMax);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' class='g'/>"
                            + "<text x='%d' y='%.1f' class='a' text-anchor='end'>%s</text>",
                    LEFT,
                    y,
                    WIDTH - RIGHT,
                    y,
                    LEFT - 6,
                    y + 4,
                    format(value)));
            double xv = xMax * i / 4;
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x='%.1f' y='%d' class='a' text-anchor='middle'>%s</text>",
                    px(xv, xMax),
                    bottom + 16,
                    format(xv)));
        }
        svg.append(String.format(
                Locale.ROOT,
                "<text x='%d' y='%d' class='a' text-anchor='middle'>%s</text>",
                (LEFT + WIDTH - RIGHT) / 2,
                HEIGHT - 6,
                Html.escape(xLabel)));
        svg.append(String.format(
                Locale.ROOT,
                "<text x='14' y='%d' class='a' text-anchor='middle' transform='rotate(-90 14 %d)'>%s</text>",
                (TOP + bottom) / 2,
                (TOP + bottom) / 2,
                Html.escape(yLabel)));
    }

    private static void flush(StringBuilder svg, StringBuilder points, String color) {
        if (points.length() > 0) {
            svg.append("<polyline fill='none' stroke='")
                    .append(color)
                    .append("' stroke-width='1.6' points='")
                    .append(points.toString().trim())
                    .append("'/>");
            points.setLength(0);
        }
    }

    private static double px(double x, double xMax) {
        return LEFT + x / xMax * (WIDTH - LEFT - RIGHT);
    }

    private static double py(double y, double yMax) {
        return HEIGHT - BOTTOM - y / yMax * (HEIGHT - BOTTOM - TOP);
    }

    /** 1, 2 or 5 times a power of ten, at least {@code value}. */
    static double niceCeiling(double value) {
        if (value <= 0) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * power >= value) {
                return step * power;
            }
        }
        return 10 * power;
    }

    static String format(double v) {
        if (v > 0 && v < 0.01) {
            return String.format(Locale.ROOT, "%.3f", v);
        }
        if (v >= 1_000_000) {
            return String.format(Locale.ROOT, "%.1fM", v / 1_000_000);
        }
        if (v >= 10_000) {
            return String.format(Locale.ROOT, "%.0fk", v / 1000);
        }
        if (v >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return String.format(Locale.ROOT, v >= 10 ? "%.1f" : "%.2f", v);
    }
}
