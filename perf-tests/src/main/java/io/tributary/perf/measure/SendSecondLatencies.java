package io.tributary.perf.measure;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * End-to-end latencies grouped by the second their message was sent in, counted from an origin (the start of the
 * measured window): per second the message count, the exact highest latency, and p50 / p99 from a histogram of two
 * significant digits. The event loops record under one lock (tens of nanoseconds at the delivery rates one generator
 * reaches). Once a second is {@link #SEAL_AFTER_MICROS} old its histogram is folded into its figures and dropped, so
 * a two-hour run holds about a minute of histograms; a delivery even later still counts in its second's messages and
 * maximum, only not in its percentiles.
 */
public final class SendSecondLatencies {

    static final long SEAL_AFTER_MICROS = 60_000_000L;
    private static final long SECOND_MICROS = 1_000_000L;

    private final List<Second> seconds = new ArrayList<>();
    private long originMicros = Long.MIN_VALUE;
    private int sealedBelow;

    /** One second's figures; {@code histogram} is null once sealed. */
    private static final class Second {
        long count;
        long maxMicros;
        Histogram histogram = new Histogram(LiveMetrics.MAX_TRACKABLE_MICROS, 2);
        double p50Millis = -1;
        double p99Millis = -1;
    }

    /**
     * Second 0 starts at {@code epochMicros}. Without an origin, the first recorded message sets it to the start of
     * its wall-clock second.
     */
    public synchronized void startAt(long epochMicros) {
        originMicros = epochMicros;
    }

    /** One measured delivery; times are wall-clock microseconds (the stamp's send time and the latency). */
    public synchronized void record(long sentMicros, long latencyMicros) {
        if (originMicros == Long.MIN_VALUE) {
            originMicros = sentMicros - Math.floorMod(sentMicros, SECOND_MICROS);
        }
        // A stamp before the origin (a clock step) counts in the first second rather than nowhere.
        int index = (int) Math.max(0, (sentMicros - originMicros) / SECOND_MICROS);
        while (seconds.size() <= index) {
            seconds.add(null);
        }
        Second s = seconds.get(index);
        if (s == null) {
            s = new Second();
            seconds.set(index, s);
        }
        long latency = Math.max(0, Math.min(latencyMicros, LiveMetrics.MAX_TRACKABLE_MICROS));
        s.count++;
        s.maxMicros = Math.max(s.maxMicros, latency);
        if (s.histogram != null) {
            s.histogram.recordValue(latency);
        }
    }

    /** Folds the histograms of the seconds that ended more than a minute before {@code nowMicros}. */
    public synchronized void seal(long nowMicros) {
        while (sealedBelow < seconds.size()
                && originMicros + (sealedBelow + 1) * SECOND_MICROS + SEAL_AFTER_MICROS < nowMicros) {
            Second s = seconds.get(sealedBelow);
            if (s != null && s.histogram != null) {
                s.p50Millis = percentile(s, 50);
                s.p99Millis = percentile(s, 99);
                s.histogram = null;
            }
            sealedBelow++;
        }
    }

    /**
     * Every second from the first with a delivery to the last, the empty ones in between included (nothing sent
     * then, or all of it lost), so the series starts at the first message and has no hidden hole.
     */
    public synchronized List<SecondLatency> series() {
        List<SecondLatency> out = new ArrayList<>();
        for (int i = 0; i < seconds.size(); i++) {
            Second s = seconds.get(i);
            long epochMillis = (originMicros + i * SECOND_MICROS) / 1000;
            if (s == null) {
                if (!out.isEmpty()) {
                    out.add(SecondLatency.empty(i, epochMillis));
                }
                continue;
            }
            double p50 = s.histogram != null ? percentile(s, 50) : s.p50Millis;
            double p99 = s.histogram != null ? percentile(s, 99) : s.p99Millis;
            out.add(new SecondLatency(i, epochMillis, s.count, p50, p99, s.maxMicros / 1000.0));
        }
        return out;
    }

    /** A percentile of a second, never above its exact maximum (a histogram bucket's top can be). */
    private static double percentile(Second s, double percentile) {
        return Math.min(s.histogram.getValueAtPercentile(percentile), s.maxMicros) / 1000.0;
    }
}
