package io.tributary.perf.report;

import io.tributary.perf.measure.Ledger;
import io.tributary.perf.measure.SecondLatency;
import io.tributary.perf.measure.TimeSample;
import java.util.List;
import java.util.Map;

/**
 * Everything one run (or a merge of runs) measured; written as JSON and rendered as HTML. Latencies are milliseconds,
 * rates per second, memory bytes. {@code format} changes when a field changes meaning.
 *
 * @param latencyBySendSecond  end-to-end latency of each second of the measured window, by send time (empty in
 *                             results written before it existed)
 * @param stallThresholdMillis a second whose highest latency passes this is a stall ({@link StallReport})
 */
public record RunResult(
        int format,
        String scenario,
        String description,
        String label,
        String role,
        String runId,
        double scale,
        List<String> targets,
        String startedAt,
        double elapsedSeconds,
        double measuredSeconds,
        double offeredRate,
        Machine machine,
        Connections connections,
        Messages messages,
        Percentiles endToEnd,
        Percentiles publishAck,
        Percentiles connect,
        Broker broker,
        double generatorCpuAverage,
        List<String> warnings,
        List<TimeSample> timeline,
        List<SecondLatency> latencyBySendSecond,
        double stallThresholdMillis,
        Histograms histograms,
        Ledger ledger,
        boolean hasPublisherSide,
        boolean hasSubscriberSide,
        String scenarioText) {

    public static final int FORMAT = 1;

    public RunResult {
        latencyBySendSecond = latencyBySendSecond == null ? List.of() : List.copyOf(latencyBySendSecond);
        stallThresholdMillis = stallThresholdMillis > 0 ? stallThresholdMillis : StallReport.DEFAULT_THRESHOLD_MILLIS;
    }

    /** The same result with another stall threshold ({@code report --stall-threshold}). */
    public RunResult withStallThreshold(double millis) {
        return new RunResult(
                format,
                scenario,
                description,
                label,
                role,
                runId,
                scale,
                targets,
                startedAt,
                elapsedSeconds,
                measuredSeconds,
                offeredRate,
                machine,
                connections,
                messages,
                endToEnd,
                publishAck,
                connect,
                broker,
                generatorCpuAverage,
                warnings,
                timeline,
                latencyBySendSecond,
                millis,
                histograms,
                ledger,
                hasPublisherSide,
                hasSubscriberSide,
                scenarioText);
    }

    /**
     * The machine the generator ran on (the broker shares it in every shipped scenario). The 1-minute load averages
     * at start and end show whether other work competed for the cores during the run.
     */
    public record Machine(
            int cores,
            long memoryBytes,
            String kernel,
            String jdk,
            String netty,
            boolean epoll,
            double loadAverageStart,
            double loadAverageEnd) {}

    /**
     * @param planned          connections this process (or merge) meant to open
     * @param established      connections that became ready (CONNACK, and SUBACK for subscribers)
     * @param peakConnected    most connections open at once
     * @param rampSeconds      from the first connect attempt to the last connection ready
     * @param achievedRampRate established / rampSeconds
     * @param failureReasons   why connections failed, with counts (the first distinct reasons only)
     */
    public record Connections(
            long planned,
            long attempted,
            long established,
            long peakConnected,
            long failed,
            long lost,
            double rampSeconds,
            double achievedRampRate,
            Map<String, Long> failureReasons) {}

    /**
     * @param lossKnown   false for a one-sided result: lost / unexpected need both ledgers (see merge)
     * @param throughputIn  measured publishes per second
     * @param throughputOut measured distinct deliveries per second
     */
    public record Messages(
            long published,
            long publishedMeasured,
            long acked,
            long skippedWindowFull,
            long skippedNotWritable,
            long receivedTotal,
            long expected,
            long received,
            long lost,
            long duplicates,
            long unexpected,
            long unparsable,
            long streams,
            long streamsWithLoss,
            boolean lossKnown,
            double throughputIn,
            double throughputOut) {}

    /** Percentiles in milliseconds; count 0 means nothing was recorded. */
    public record Percentiles(long count, double mean, double p50, double p90, double p99, double p999, double max) {

        public static final Percentiles NONE = new Percentiles(0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * @param rssBaseline        summed RSS before the first connection
     * @param rssLoaded          summed RSS once every connection was ready (after a short settle)
     * @param bytesPerConnection (rssLoaded - rssBaseline) / connections ready at that point
     */
    public record Broker(
            List<String> processes,
            double cpuAverage,
            double cpuPeak,
            long rssBaseline,
            long rssLoaded,
            long rssPeak,
            long connectionsAtLoaded,
            double bytesPerConnection,
            List<ProcessFigures> perProcess) {

        public static final Broker NONE = new Broker(List.of(), 0, 0, 0, 0, 0, 0, 0, List.of());
    }

    /** One sampled broker process: CPU average over the loaded phase, RSS before and once connected. */
    public record ProcessFigures(String process, double cpuAverage, long rssBaseline, long rssLoaded) {}

    /** HdrHistograms, compressed and base64-encoded, so merges combine exact distributions. */
    public record Histograms(String endToEnd, String publishAck, String connect) {}
}
