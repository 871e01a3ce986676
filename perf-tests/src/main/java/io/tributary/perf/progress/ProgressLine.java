package io.tributary.perf.progress;

import io.tributary.perf.measure.TimeSample;
import java.util.Locale;

/** The text of a progress line: the plain one of logs and the bar of a terminal. */
final class ProgressLine {

    private static final int BAR_CELLS = 20;

    private ProgressLine() {}

    /** {@code [  12s] measure    40% 0:18 left | conn 11/11 (+0/s, ready 11, ...) | pub ... | ...}. */
    static String plain(Progress p, double laterSeconds) {
        return String.format(
                Locale.ROOT,
                "[%4.0fs] %-10s %s | %s",
                p.elapsedSeconds(),
                p.phase(),
                schedule(p, laterSeconds),
                details(p));
    }

    /**
     * {@code measure    [########------------]  40% 0:12 elapsed, 0:18 left | conn 11/11 | sent 540 recv 1320 | ...}:
     * the figures that matter first, as a terminal line is cut at its width.
     */
    static String bar(Progress p, double laterSeconds) {
        double left = p.leftSeconds() + laterSeconds;
        double fraction = Double.isNaN(left) ? 0 : fractionOf(p.elapsedSeconds(), left);
        int full = (int) Math.round(fraction * BAR_CELLS);
        TimeSample s = p.sample();
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "%-10s [%s%s] %3.0f%% %s elapsed, %s left | conn %d/%d",
                p.phase(),
                "#".repeat(full),
                "-".repeat(BAR_CELLS - full),
                fraction * 100,
                clock(p.elapsedSeconds()),
                Double.isNaN(left) ? "?" : clock(left),
                s.connected(),
                p.planned()));
        if (p.failed() > 0 || p.lost() > 0) {
            line.append(String.format(Locale.ROOT, " (failed %d, lost %d)", p.failed(), p.lost()));
        }
        line.append(String.format(
                Locale.ROOT,
                " | sent %d recv %d | %d/s in %d/s out",
                p.sent(),
                p.received(),
                s.sentRate(),
                s.receivedRate()));
        if (s.p50Millis() >= 0) {
            line.append(String.format(Locale.ROOT, " | e2e p99 %.1f ms", s.p99Millis()));
        }
        if (p.brokerSampled()) {
            line.append(String.format(Locale.ROOT, " | broker cpu %.0f%%", s.brokerCpu()));
        }
        return line.toString();
    }

    private static String schedule(Progress p, double laterSeconds) {
        double left = p.leftSeconds() + laterSeconds;
        if (Double.isNaN(left)) {
            return "time left unknown";
        }
        return String.format(Locale.ROOT, "%3.0f%% %s left", fractionOf(p.elapsedSeconds(), left) * 100, clock(left));
    }

    private static double fractionOf(double elapsed, double left) {
        double total = elapsed + left;
        return total <= 0 ? 1 : Math.min(1, elapsed / total);
    }

    private static String details(Progress p) {
        TimeSample s = p.sample();
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "conn %d/%d (+%d/s, ready %d, failed %d, lost %d) | sent %d, received %d | pub %d/s recv %d/s"
                        + " ack %d/s",
                s.connected(),
                p.planned(),
                s.connectRate(),
                p.ready(),
                p.failed(),
                p.lost(),
                p.sent(),
                p.received(),
                s.sentRate(),
                s.receivedRate(),
                s.ackedRate()));
        if (s.p50Millis() >= 0) {
            line.append(String.format(
                    Locale.ROOT, " | e2e p50 %.1f p99 %.1f max %.1f ms", s.p50Millis(), s.p99Millis(), s.maxMillis()));
        }
        if (p.inflight() > 0 || p.windowFull() > 0) {
            line.append(" | inflight ")
                    .append(p.inflight())
                    .append(" window-full ")
                    .append(p.windowFull());
        }
        if (p.brokerSampled()) {
            line.append(String.format(
                    Locale.ROOT, " | broker cpu %.0f%% rss %s", s.brokerCpu(), bytes(s.brokerRssBytes())));
        }
        line.append(String.format(Locale.ROOT, " | gen cpu %.0f%%", s.generatorCpu()));
        return line.toString();
    }

    /** 0:07, 12:30, 1:02:03. */
    static String clock(double seconds) {
        long s = Math.max(0, Math.round(seconds));
        return s >= 3600
                ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    static String bytes(long b) {
        if (b >= 1L << 30) {
            return String.format(Locale.ROOT, "%.2f GiB", b / (double) (1L << 30));
        }
        return String.format(Locale.ROOT, "%.0f MiB", b / (double) (1L << 20));
    }
}
