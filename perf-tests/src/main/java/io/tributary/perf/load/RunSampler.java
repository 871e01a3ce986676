package io.tributary.perf.load;

import io.tributary.perf.measure.Clock;
import io.tributary.perf.measure.Intervals;
import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.measure.ProcessSampler;
import io.tributary.perf.measure.TimeSample;
import io.tributary.perf.progress.Progress;
import io.tributary.perf.progress.RunConsole;
import io.tributary.perf.report.LatencyLogs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Once a second: harvests the latency recorders into the interval logs, samples broker and generator CPU/RSS,
 * appends a {@link TimeSample} and shows the run's progress.
 */
final class RunSampler implements AutoCloseable {

    private final LiveMetrics metrics;
    private final ProcessSampler broker;
    private final ProcessSampler self;
    private final RunSchedule schedule;
    private final RunConsole console;
    private final LatencyLogs latencyLogs;
    private final long startNanos = System.nanoTime();
    private final List<TimeSample> samples = new ArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "perf-sampler");
        t.setDaemon(true);
        return t;
    });
    private long lastAttempts;
    private long lastSent;
    private long lastReceived;
    private long lastAcked;
    private long lastMeasured;
    private int peakConnected;
    private volatile long lastMeasuredChangeNanos;
    private volatile long firstMeasuredNanos;
    private boolean closed;
    private final Map<Long, double[]> loadedCpuByPid = new HashMap<>();

    RunSampler(
            LiveMetrics metrics,
            ProcessSampler broker,
            ProcessSampler self,
            RunSchedule schedule,
            RunConsole console,
            LatencyLogs latencyLogs,
            String about) {
        this.metrics = metrics;
        this.broker = broker;
        this.self = self;
        this.schedule = schedule;
        this.console = console;
        this.latencyLogs = latencyLogs;
        broker.sample();
        self.sample();
        // Nothing is recorded yet: this harvest starts the first logged interval now, at the logs' base time.
        long base = System.currentTimeMillis();
        metrics.harvest();
        latencyLogs.start(base, about);
    }

    void start() {
        timer.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    }

    private void tick() {
        try {
            sampleNow(true);
        } catch (RuntimeException e) {
            console.line("sampler: " + e);
        }
    }

    private synchronized void sampleNow(boolean print) {
        Intervals intervals = metrics.harvest();
        metrics.bySendSecond.seal(Clock.nowMicros());
        latencyLogs.append(intervals);
        Histogram interval = intervals.endToEnd();
        ProcessSampler.Usage b = broker.sample();
        ProcessSampler.Usage g = self.sample();
        long attempts = metrics.connectAttempts.sum();
        long sent = metrics.published.sum();
        long received = metrics.received.sum();
        long acked = metrics.acked.sum();
        long measured = metrics.receivedMeasured.sum();
        long now = System.nanoTime();
        if (measured != lastMeasured) {
            if (firstMeasuredNanos == 0) {
                firstMeasuredNanos = now;
            }
            lastMeasuredChangeNanos = now;
        }
        int connected = metrics.connected.get();
        peakConnected = Math.max(peakConnected, connected);
        boolean any = interval.getTotalCount() > 0;
        TimeSample sample = new TimeSample(
                (now - startNanos) / 1e9,
                System.currentTimeMillis(),
                schedule.phase(),
                connected,
                attempts - lastAttempts,
                sent - lastSent,
                received - lastReceived,
                acked - lastAcked,
                any ? interval.getValueAtPercentile(50) / 1000.0 : -1,
                any ? interval.getValueAtPercentile(99) / 1000.0 : -1,
                any ? interval.getMaxValue() / 1000.0 : -1,
                b.cpuPercent(),
                b.rssBytes(),
                g.cpuPercent());
        samples.add(sample);
        if (ResultAssembler.LOADED_PHASES.contains(sample.phase())) {
            b.cpuByPid().forEach((pid, pct) -> {
                double[] sumCount = loadedCpuByPid.computeIfAbsent(pid, k -> new double[2]);
                sumCount[0] += pct;
                sumCount[1]++;
            });
        }
        lastAttempts = attempts;
        lastSent = sent;
        lastReceived = received;
        lastAcked = acked;
        lastMeasured = measured;
        if (print) {
            console.progress(new Progress(
                    sample.phase(),
                    sample.second(),
                    schedule.leftSeconds(),
                    schedule.planned(),
                    metrics.ready.get(),
                    metrics.connectFailures.sum(),
                    metrics.connectionsLost.sum(),
                    sent,
                    received,
                    metrics.inflight.get(),
                    metrics.skippedWindowFull.sum(),
                    !broker.labels().isEmpty(),
                    sample));
        }
    }

    /**
     * Seconds since the last sample that saw the measured-received counter move; 0 while no sample has seen a
     * measured delivery yet (nothing to be quiet after).
     */
    double secondsSinceLastMeasured() {
        return lastMeasuredChangeNanos == 0 ? 0 : (System.nanoTime() - lastMeasuredChangeNanos) / 1e9;
    }

    /** Seconds between the first and the last second measured deliveries arrived in (subscriber-only runs). */
    double measuredReceiveSpan() {
        return firstMeasuredNanos == 0 ? 0 : Math.max(1, (lastMeasuredChangeNanos - firstMeasuredNanos) / 1e9);
    }

    /** Average CPU per broker process over the loaded phases (measure, receiving, hold). */
    synchronized Map<Long, Double> loadedCpuByPid() {
        Map<Long, Double> out = new HashMap<>();
        loadedCpuByPid.forEach((pid, sc) -> out.put(pid, sc[1] == 0 ? 0 : sc[0] / sc[1]));
        return out;
    }

    int peakConnected() {
        return peakConnected;
    }

    synchronized List<TimeSample> samples() {
        return List.copyOf(samples);
    }

    double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        timer.shutdownNow();
        try {
            timer.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sampleNow(false);
    }
}
