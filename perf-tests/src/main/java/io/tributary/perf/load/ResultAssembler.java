package io.tributary.perf.load;

import io.netty.util.Version;
import io.tributary.perf.client.MqttLoadClient;
import io.tributary.perf.measure.DeliveryAccounting;
import io.tributary.perf.measure.Ledger;
import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.measure.SequenceTracker;
import io.tributary.perf.measure.TimeSample;
import io.tributary.perf.report.HistogramCodec;
import io.tributary.perf.report.RunResult;
import io.tributary.perf.scenario.Endpoint;
import io.tributary.perf.scenario.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the {@link RunResult} of one process from its metrics, clients and run facts. */
final class ResultAssembler {

    static final List<String> LOADED_PHASES = List.of("measure", "receiving", "hold");

    private ResultAssembler() {}

    static RunResult assemble(
            Scenario scenario, RunOptions options, LiveMetrics metrics, List<MqttLoadClient> clients, RunFacts facts) {
        Ledger ledger = ledger(clients);
        Role role = options.role();
        DeliveryAccounting.Delivery delivery = DeliveryAccounting.compute(
                scenario, options.runId(), ledger, role.runsPublishers(), role.runsSubscribers());
        double seconds = Math.max(facts.measuredSeconds, 1e-9);
        RunResult.Messages messages = new RunResult.Messages(
                metrics.published.sum(),
                metrics.publishedMeasured.sum(),
                metrics.acked.sum(),
                metrics.skippedWindowFull.sum(),
                metrics.skippedNotWritable.sum(),
                metrics.received.sum(),
                delivery.expected(),
                delivery.received(),
                delivery.lost(),
                delivery.duplicates(),
                delivery.unexpected(),
                metrics.unparsable.sum(),
                delivery.streams(),
                delivery.streamsWithLoss(),
                delivery.complete(),
                facts.measuredSeconds > 0 ? delivery.sent() / seconds : 0,
                facts.measuredSeconds > 0 ? delivery.received() / seconds : 0);
        Map<String, Long> reasons = new LinkedHashMap<>();
        facts.failureReasons.forEach((reason, count) -> reasons.put(reason, count.sum()));
        RunResult.Connections connections = new RunResult.Connections(
                facts.planned,
                metrics.connectAttempts.sum(),
                facts.established,
                facts.peakConnected,
                metrics.connectFailures.sum(),
                metrics.connectionsLost.sum(),
                facts.rampSeconds,
                facts.rampSeconds > 0 ? facts.established / facts.rampSeconds : 0,
                reasons);
        List<String> targets = new ArrayList<>();
        scenario.publishers().forEach(g -> g.client().targets().forEach(t -> addOnce(targets, t)));
        scenario.subscribers().forEach(g -> g.client().targets().forEach(t -> addOnce(targets, t)));
        scenario.connections().forEach(c -> c.targets().forEach(t -> addOnce(targets, t)));
        return new RunResult(
                RunResult.FORMAT,
                scenario.name(),
                scenario.description(),
                options.label(),
                role.label(),
                options.runId(),
                options.scale(),
                targets,
                facts.started.toString(),
                facts.elapsedSeconds,
                facts.measuredSeconds,
                scenario.offeredRate(),
                machine(facts.epoll, facts.loadAverageStart),
                connections,
                messages,
                HistogramCodec.percentiles(metrics.endToEndTotal()),
                HistogramCodec.percentiles(metrics.ackTotal()),
                HistogramCodec.percentiles(metrics.connectTotal()),
                broker(facts),
                generatorCpu(facts.samples),
                List.copyOf(facts.warnings),
                facts.samples,
                metrics.bySendSecond.series(),
                options.stallThreshold() == null ? 0 : options.stallThreshold().toNanos() / 1e6,
                new RunResult.Histograms(
                        HistogramCodec.encode(metrics.endToEndTotal()),
                        HistogramCodec.encode(metrics.ackTotal()),
                        HistogramCodec.encode(metrics.connectTotal())),
                ledger,
                role.runsPublishers(),
                role.runsSubscribers(),
                scenario.sourceText());
    }

    static Ledger ledger(List<MqttLoadClient> clients) {
        List<Ledger.PublisherSent> publishers = new ArrayList<>();
        List<long[]> streams = new ArrayList<>();
        for (MqttLoadClient client : clients) {
            if (client.plan().isPublisher()) {
                publishers.add(new Ledger.PublisherSent(
                        client.plan().publisher().publisherId(),
                        client.sentPerSlot().clone()));
            }
            if (client.plan().subscriber() != null) {
                int subscriberId = client.plan().subscriber().subscriberId();
                for (Map.Entry<Integer, SequenceTracker> e :
                        client.receivedByPublisher().entrySet()) {
                    streams.add(new long[] {
                        e.getKey(),
                        subscriberId,
                        e.getValue().unique(),
                        e.getValue().duplicates()
                    });
                }
            }
        }
        long[] flat = new long[streams.size() * 4];
        for (int i = 0; i < streams.size(); i++) {
            System.arraycopy(streams.get(i), 0, flat, i * 4, 4);
        }
        return new Ledger(publishers, flat);
    }

    static RunResult.Broker broker(RunFacts facts) {
        if (facts.brokerLabels.isEmpty()) {
            return RunResult.Broker.NONE;
        }
        double cpuSum = 0;
        int cpuCount = 0;
        double cpuPeak = 0;
        long rssPeak = 0;
        for (TimeSample s : facts.samples) {
            if (LOADED_PHASES.contains(s.phase())) {
                cpuSum += s.brokerCpu();
                cpuCount++;
            }
            cpuPeak = Math.max(cpuPeak, s.brokerCpu());
            rssPeak = Math.max(rssPeak, s.brokerRssBytes());
        }
        long delta = facts.rssLoaded - facts.rssBaseline;
        List<RunResult.ProcessFigures> perProcess = new ArrayList<>();
        facts.brokerLabelsByPid.forEach((pid, label) -> perProcess.add(new RunResult.ProcessFigures(
                label,
                facts.cpuByPid.getOrDefault(pid, 0.0),
                facts.rssBaselineByPid.getOrDefault(pid, 0L),
                facts.rssLoadedByPid.getOrDefault(pid, 0L))));
        return new RunResult.Broker(
                facts.brokerLabels,
                cpuCount == 0 ? 0 : cpuSum / cpuCount,
                cpuPeak,
                facts.rssBaseline,
                facts.rssLoaded,
                rssPeak,
                facts.connectionsAtLoaded,
                facts.connectionsAtLoaded > 0 ? (double) delta / facts.connectionsAtLoaded : 0,
                perProcess);
    }

    private static double generatorCpu(List<TimeSample> samples) {
        return samples.stream()
                .filter(s -> LOADED_PHASES.contains(s.phase()))
                .mapToDouble(TimeSample::generatorCpu)
                .average()
                .orElse(0);
    }

    /** The 1-minute load average, or -1 when unknown. */
    static double loadAverage() {
        try {
            return Double.parseDouble(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg"))
                    .split(" ")[0]);
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    static RunResult.Machine machine(boolean epoll, double loadAverageStart) {
        long memory = 0;
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    memory = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // Not Linux: memory unknown (0).
        }
        String netty = Version.identify().values().stream()
                .filter(v -> v.artifactId().equals("netty-common"))
                .map(Version::artifactVersion)
                .findFirst()
                .orElse("unknown");
        return new RunResult.Machine(
                Runtime.getRuntime().availableProcessors(),
                memory,
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                netty,
                epoll,
                loadAverageStart,
                loadAverage());
    }

    private static void addOnce(List<String> list, Endpoint endpoint) {
        if (!list.contains(endpoint.toString())) {
            list.add(endpoint.toString());
        }
    }
}
