package io.tributary.perf.load;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.HdrHistogram.Histogram;

import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.measure.ProcessSampler;
import io.tributary.perf.measure.TimeSample;

/**
 * Once a second: harvests the latency recorders, samples broker and generator CPU/RSS, appends a
 * {@link TimeSample} and prints one progress line.
 */
final class RunSampler implements AutoCloseable {

    private final LiveMetrics metrics;
    private final ProcessSampler broker;
    private final ProcessSampler self;
    private final Supplier<String> phase;
    private final PrintStream console;
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

    RunSampler(LiveMetrics metrics, ProcessSampler broker, ProcessSampler self, Supplier<String> phase,
               PrintStream console) {
        this.metrics = metrics;
        this.broker = broker;
        this.self = self;
        this.phase = phase;
        this.console = console;
        broker.sample();
        self.sample();
    }

    void start() {
        timer.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    }

    private void tick() {
        try {
            sampleNow(true);
        } catch (RuntimeException e) {
            console.println("sampler: " + e);
        }
    }

    private synchronized void sampleNow(boolean print) {
        Histogram interval = metrics.harvest();
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
        TimeSample sample = new TimeSample((now - startNanos) / 1e9, System.currentTimeMillis(), phase.get(),
                connected, attempts - lastAttempts, sent - lastSent, received - lastReceived, acked - lastAcked,
                any ? interval.getValueAtPercentile(50) / 1000.0 : -1,
                any ? interval.getValueAtPercentile(99) / 1000.0 : -1,
                any ? interval.getMaxValue() / 1000.0 : -1, b.cpuPercent(), b.rssBytes(), g.cpuPercent());
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
            console.println(progressLine(sample));
        }
    }

    private String progressLine(TimeSample s) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[%4.0fs] %-10s conn %d (+%d/s, ready %d,"
                        + " failed %d, lost %d) | pub %d/s recv %d/s ack %d/s",
                s.second(), s.phase(), s.connected(), s.connectRate(), metrics.ready.get(),
                metrics.connectFailures.sum(), metrics.connectionsLost.sum(), s.sentRate(), s.receivedRate(),
                s.ackedRate()));
        if (s.p50Millis() >= 0) {
            line.append(String.format(Locale.ROOT, " | e2e p50 %.1f p99 %.1f max %.1f ms", s.p50Millis(),
                    s.p99Millis(), s.maxMillis()));
        }
        if (metrics.inflight.get() > 0 || metrics.skippedWindowFull.sum() > 0) {
            line.append(" | inflight ").append(metrics.inflight.get()).append(" window-full ")
                    .append(metrics.skippedWindowFull.sum());
        }
        if (!broker.labels().isEmpty()) {
            line.append(String.format(Locale.ROOT, " | broker cpu %.0f%% rss %s", s.brokerCpu(),
                    bytes(s.brokerRssBytes())));
        }
        line.append(String.format(Locale.ROOT, " | gen cpu %.0f%%", s.generatorCpu()));
        return line.toString();
    }

    static String bytes(long b) {
        if (b >= 1L << 30) {
            return String.format(Locale.ROOT, "%.2f GiB", b / (double) (1L << 30));
        }
        return String.format(Locale.ROOT, "%.0f MiB", b / (double) (1L << 20));
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
