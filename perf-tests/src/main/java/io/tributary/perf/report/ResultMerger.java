package io.tributary.perf.report;

import io.tributary.perf.measure.DeliveryAccounting;
import io.tributary.perf.measure.Ledger;
import io.tributary.perf.measure.TimeSample;
import io.tributary.perf.scenario.Scenario;
import io.tributary.perf.scenario.ScenarioLoader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Combines the results of processes that ran one scenario together (typically {@code --role publishers} and
 * {@code --role subscribers}) into one: ledgers are joined so loss and duplicates become known, histograms are added
 * exactly, timelines are aligned on wall-clock seconds.
 */
public final class ResultMerger {

    private ResultMerger() {}

    public static RunResult merge(List<RunResult> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge");
        }
        RunResult first = parts.get(0);
        List<String> warnings = checkMergeable(parts);
        Scenario scenario = ScenarioLoader.parse("merged result", first.scenario(), first.scenarioText())
                .scaled(first.scale());
        Ledger ledger = Ledger.EMPTY;
        boolean publisherSide = false;
        boolean subscriberSide = false;
        Histogram e2e = HistogramCodec.decode(null);
        Histogram ack = HistogramCodec.decode(null);
        Histogram connect = HistogramCodec.decode(null);
        for (RunResult p : parts) {
            ledger = ledger.plus(p.ledger());
            publisherSide |= p.hasPublisherSide();
            subscriberSide |= p.hasSubscriberSide();
            e2e.add(HistogramCodec.decode(p.histograms().endToEnd()));
            ack.add(HistogramCodec.decode(p.histograms().publishAck()));
            connect.add(HistogramCodec.decode(p.histograms().connect()));
        }
        DeliveryAccounting.Delivery delivery =
                DeliveryAccounting.compute(scenario, first.runId(), ledger, publisherSide, subscriberSide);
        double measured = measuredSeconds(parts);
        LinkedHashSet<String> targets = new LinkedHashSet<>();
        parts.forEach(p -> targets.addAll(p.targets()));
        String roles = String.join("+", parts.stream().map(RunResult::role).toList());
        String started =
                parts.stream().map(RunResult::startedAt).sorted().findFirst().orElse(first.startedAt());
        return new RunResult(
                RunResult.FORMAT,
                first.scenario(),
                first.description(),
                first.label(),
                "merged(" + roles + ")",
                first.runId(),
                first.scale(),
                List.copyOf(targets),
                started,
                parts.stream().mapToDouble(RunResult::elapsedSeconds).max().orElse(0),
                measured,
                first.offeredRate(),
                first.machine(),
                connections(parts),
                messages(parts, delivery, measured),
                HistogramCodec.percentiles(e2e),
                HistogramCodec.percentiles(ack),
                HistogramCodec.percentiles(connect),
                broker(parts),
                parts.stream().mapToDouble(RunResult::generatorCpuAverage).sum(),
                warnings,
                timeline(parts),
                SendSecondMerge.merge(parts),
                first.stallThresholdMillis(),
                new RunResult.Histograms(
                        HistogramCodec.encode(e2e), HistogramCodec.encode(ack), HistogramCodec.encode(connect)),
                ledger,
                publisherSide,
                subscriberSide,
                first.scenarioText());
    }

    /**
     * Refuses parts of different scenarios or scales; returns the warnings of the merged result: differing run ids,
     * then each part's own warnings prefixed with its role.
     */
    private static List<String> checkMergeable(List<RunResult> parts) {
        RunResult first = parts.get(0);
        List<String> warnings = new ArrayList<>();
        for (RunResult p : parts) {
            if (!p.scenario().equals(first.scenario())) {
                throw new IllegalArgumentException(
                        "cannot merge results of different scenarios: " + first.scenario() + " and " + p.scenario());
            }
            if (!p.runId().equals(first.runId())) {
                warnings.add("run ids differ (" + first.runId() + ", " + p.runId() + "): topics or filters using"
                        + " {run} will not match; give both processes the same --run-id");
            }
            if (p.scale() != first.scale()) {
                throw new IllegalArgumentException("cannot merge results run with different --scale");
            }
            p.warnings().forEach(w -> warnings.add(p.role() + ": " + w));
        }
        return warnings;
    }

    /** The publishers' measured window is the run's; without a publisher side, the longest of any part. */
    private static double measuredSeconds(List<RunResult> parts) {
        return parts.stream()
                .filter(RunResult::hasPublisherSide)
                .mapToDouble(RunResult::measuredSeconds)
                .max()
                .orElse(parts.stream()
                        .mapToDouble(RunResult::measuredSeconds)
                        .max()
                        .orElse(0));
    }

    /** Counters are summed; what was delivered comes from the joined ledgers, not from any one part. */
    private static RunResult.Messages messages(
            List<RunResult> parts, DeliveryAccounting.Delivery delivery, double measured) {
        return new RunResult.Messages(
                sum(parts, r -> r.messages().published()),
                sum(parts, r -> r.messages().publishedMeasured()),
                sum(parts, r -> r.messages().acked()),
                sum(parts, r -> r.messages().skippedWindowFull()),
                sum(parts, r -> r.messages().skippedNotWritable()),
                sum(parts, r -> r.messages().receivedTotal()),
                delivery.expected(),
                delivery.received(),
                delivery.lost(),
                delivery.duplicates(),
                delivery.unexpected(),
                sum(parts, r -> r.messages().unparsable()),
                delivery.streams(),
                delivery.streamsWithLoss(),
                delivery.complete(),
                measured > 0 ? delivery.sent() / measured : 0,
                measured > 0 ? delivery.received() / measured : 0);
    }

    /** Counts are summed; the ramp took as long as the slowest part's, and the failure reasons are added up. */
    private static RunResult.Connections connections(List<RunResult> parts) {
        long established = sum(parts, r -> r.connections().established());
        double rampSeconds = parts.stream()
                .mapToDouble(r -> r.connections().rampSeconds())
                .max()
                .orElse(0);
        Map<String, Long> reasons = new LinkedHashMap<>();
        parts.forEach(p -> p.connections().failureReasons().forEach((k, v) -> reasons.merge(k, v, Long::sum)));
        return new RunResult.Connections(
                sum(parts, r -> r.connections().planned()),
                sum(parts, r -> r.connections().attempted()),
                established,
                sum(parts, r -> r.connections().peakConnected()),
                sum(parts, r -> r.connections().failed()),
                sum(parts, r -> r.connections().lost()),
                rampSeconds,
                rampSeconds > 0 ? established / rampSeconds : 0,
                reasons);
    }

    /** The broker figures of the first part that sampled any broker process; the others are not added. */
    private static RunResult.Broker broker(List<RunResult> parts) {
        return parts.stream()
                .map(RunResult::broker)
                .filter(b -> !b.processes().isEmpty())
                .findFirst()
                .orElse(RunResult.Broker.NONE);
    }

    /** Samples of all parts summed per wall-clock second; latency from whichever part received in that second. */
    static List<TimeSample> timeline(List<RunResult> parts) {
        TreeMap<Long, List<TimeSample>> bySecond = new TreeMap<>();
        for (RunResult p : parts) {
            for (TimeSample s : p.timeline()) {
                bySecond.computeIfAbsent(Math.round(s.epochMillis() / 1000.0), k -> new ArrayList<>())
                        .add(s);
            }
        }
        List<TimeSample> merged = new ArrayList<>();
        if (bySecond.isEmpty()) {
            return merged;
        }
        long origin = bySecond.firstKey();
        for (Map.Entry<Long, List<TimeSample>> e : bySecond.entrySet()) {
            List<TimeSample> same = e.getValue();
            TimeSample latency =
                    same.stream().filter(s -> s.p50Millis() >= 0).findFirst().orElse(same.get(0));
            TimeSample brokerSample = same.stream()
                    .filter(s -> s.brokerRssBytes() > 0)
                    .findFirst()
                    .orElse(same.get(0));
            merged.add(new TimeSample(
                    e.getKey() - origin,
                    e.getKey() * 1000,
                    String.join(
                            "/", same.stream().map(TimeSample::phase).distinct().toList()),
                    same.stream().mapToInt(TimeSample::connected).sum(),
                    same.stream().mapToLong(TimeSample::connectRate).sum(),
                    same.stream().mapToLong(TimeSample::sentRate).sum(),
                    same.stream().mapToLong(TimeSample::receivedRate).sum(),
                    same.stream().mapToLong(TimeSample::ackedRate).sum(),
                    latency.p50Millis(),
                    latency.p99Millis(),
                    latency.maxMillis(),
                    brokerSample.brokerCpu(),
                    brokerSample.brokerRssBytes(),
                    same.stream().mapToDouble(TimeSample::generatorCpu).sum()));
        }
        return merged;
    }

    private static long sum(List<RunResult> parts, java.util.function.ToLongFunction<RunResult> f) {
        return parts.stream().mapToLong(f).sum();
    }
}
