package io.tributary.perf.measure;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counters and latency recorders written by the event loops and read once a second by the sampler. Latencies are
 * microseconds; values beyond an hour are clamped, as HdrHistogram cannot track them.
 */
public final class LiveMetrics {

    public static final long MAX_TRACKABLE_MICROS = 3_600_000_000L;

    public final LongAdder connectAttempts = new LongAdder();
    public final LongAdder connectFailures = new LongAdder();
    public final LongAdder connectionsLost = new LongAdder();
    public final LongAdder subscribeFailures = new LongAdder();
    public final LongAdder published = new LongAdder();
    public final LongAdder publishedMeasured = new LongAdder();
    public final LongAdder acked = new LongAdder();
    public final LongAdder skippedWindowFull = new LongAdder();
    public final LongAdder skippedNotWritable = new LongAdder();
    public final LongAdder received = new LongAdder();
    public final LongAdder receivedMeasured = new LongAdder();
    public final LongAdder duplicates = new LongAdder();
    public final LongAdder unparsable = new LongAdder();
    public final LongAdder pings = new LongAdder();
    public final AtomicInteger connected = new AtomicInteger();
    public final AtomicInteger ready = new AtomicInteger();
    public final AtomicInteger inflight = new AtomicInteger();
    /** Measured end-to-end latencies by the second their message was sent in (stalls, the worst of each second). */
    public final SendSecondLatencies bySendSecond = new SendSecondLatencies();

    private final Recorder e2e = newRecorder();
    private final Recorder connect = newRecorder();
    private final Recorder ack = newRecorder();
    private final Histogram e2eTotal = newHistogram();
    private final Histogram connectTotal = newHistogram();
    private final Histogram ackTotal = newHistogram();
    private Histogram e2eInterval;
    private Histogram connectInterval;
    private Histogram ackInterval;

    /** A measured delivery: its latency, and the same by the second it was sent in. */
    public void recordDelivery(long sentMicros, long receivedMicros) {
        long micros = receivedMicros - sentMicros;
        recordEndToEnd(micros);
        bySendSecond.record(sentMicros, micros);
    }

    public void recordEndToEnd(long micros) {
        e2e.recordValue(clamp(micros));
    }

    public void recordConnect(long micros) {
        connect.recordValue(clamp(micros));
    }

    public void recordAck(long micros) {
        ack.recordValue(clamp(micros));
    }

    /**
     * Moves what was recorded since the previous call into the totals and returns the interval's histograms (valid
     * until the next call). Called from one thread at a time.
     */
    public synchronized Intervals harvest() {
        e2eInterval = e2e.getIntervalHistogram(e2eInterval);
        connectInterval = connect.getIntervalHistogram(connectInterval);
        ackInterval = ack.getIntervalHistogram(ackInterval);
        e2eTotal.add(e2eInterval);
        connectTotal.add(connectInterval);
        ackTotal.add(ackInterval);
        return new Intervals(e2eInterval, ackInterval, connectInterval);
    }

    public synchronized Histogram endToEndTotal() {
        return e2eTotal.copy();
    }

    public synchronized Histogram connectTotal() {
        return connectTotal.copy();
    }

    public synchronized Histogram ackTotal() {
        return ackTotal.copy();
    }

    private static long clamp(long micros) {
        return Math.max(0, Math.min(micros, MAX_TRACKABLE_MICROS));
    }

    private static Recorder newRecorder() {
        return new Recorder(MAX_TRACKABLE_MICROS, 3);
    }

    public static Histogram newHistogram() {
        return new Histogram(MAX_TRACKABLE_MICROS, 3);
    }
}
