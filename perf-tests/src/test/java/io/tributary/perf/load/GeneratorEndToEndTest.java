package io.tributary.perf.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tributary.perf.MoquetteBroker;
import io.tributary.perf.measure.SecondLatency;
import io.tributary.perf.progress.RunConsole;
import io.tributary.perf.report.LatencyLogs;
import io.tributary.perf.report.ResultMerger;
import io.tributary.perf.report.RunResult;
import io.tributary.perf.scenario.Endpoint;
import io.tributary.perf.scenario.Scenario;
import io.tributary.perf.scenario.ScenarioLoader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator against a real MQTT broker: Moquette (MQTT 3.1.1), started in this JVM on an ephemeral port. Checks
 * that what the generator counts is what a broker actually delivered: QoS 0, 1 and 2, fan-out through a wildcard,
 * split publisher/subscriber runs merged, and connect-only groups.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class GeneratorEndToEndTest {

    private static MoquetteBroker broker;
    private static int port;

    @TempDir
    static Path dataDir;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = MoquetteBroker.start(dataDir);
        port = broker.port();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.stop();
        }
    }

    private static Scenario scenario(String yaml) {
        return ScenarioLoader.parse("test", "test", yaml).withTargets(List.of(new Endpoint("127.0.0.1", port, false)));
    }

    private static RunOptions options(Role role, String runId, Path out) {
        return options(role, runId, out, 0);
    }

    private static RunOptions options(Role role, String runId, Path out, int warmUpConnections) {
        return new RunOptions(
                Path.of("test.yaml"),
                role,
                List.of(),
                null,
                null,
                1,
                1,
                0,
                runId,
                "moquette",
                out,
                List.of(ProcessHandle.current().pid()),
                List.of(),
                2,
                0,
                10_000,
                false,
                false,
                false,
                warmUpConnections,
                Duration.ofMillis(50));
    }

    private static RunResult run(Scenario scenario, RunOptions options) throws InterruptedException {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        RunResult result = new LoadRun(scenario, options, new PrintStream(console, true, StandardCharsets.UTF_8)).run();
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("run " + options.runId(), "ready");
        return result;
    }

    /** Sum of the counts of every interval in an HdrHistogram log, checking the intervals follow one another. */
    private static long loggedCount(Path log) throws Exception {
        HistogramLogReader reader = new HistogramLogReader(log.toFile());
        long total = 0;
        int intervals = 0;
        double lastEnd = 0;
        for (Histogram h = (Histogram) reader.nextIntervalHistogram();
                h != null;
                h = (Histogram) reader.nextIntervalHistogram()) {
            double start = (h.getStartTimeStamp() / 1000.0) - reader.getStartTimeSec();
            assertThat(start).as(log + " interval " + intervals).isGreaterThanOrEqualTo(lastEnd - 0.01);
            lastEnd = h.getEndTimeStamp() / 1000.0 - reader.getStartTimeSec();
            total += h.getTotalCount();
            intervals++;
        }
        assertThat(reader.getStartTimeSec()).as(log + " start time header").isPositive();
        assertThat(intervals).as(log + " intervals (one per second of the run)").isGreaterThan(5);
        return total;
    }

    /**
     * On a machine crowded by other builds, Moquette 0.17 now and then closes a connection before its CONNACK; the
     * accounting then rightly shows loss for that client, which says nothing about the generator. Such a run is
     * skipped (with the reason) rather than failed; every other run must count exactly.
     */
    private static void brokerKeptEveryConnection(RunResult r) {
        assumeTrue(
                r.connections().failed() == 0 && r.connections().lost() == 0,
                "Moquette dropped connections in this run " + r.connections().failureReasons());
    }

    @Test
    void countsEveryDeliveryAtEachQos(@TempDir Path out) throws Exception {
        Scenario scenario = scenario("""
                name: qos-mix
                warm-up: 1s
                duration: 3s
                drain: 3s
                targets: [127.0.0.1:1]
                subscribers:
                  - {name: fan, count: 3, filter: "e2e/{run}/fan/#", qos: 1, ramp: 100}
                  - {name: exact2, count: 2, filter: "e2e/{run}/q2/{n}", qos: 2, ramp: 100}
                publishers:
                  - {name: q0, count: 2, topic: "e2e/{run}/fan/{n}", qos: 0, rate: 40, payload-size: 66}
                  - {name: q1, count: 2, topic: "e2e/{run}/fan/x{n}", qos: 1, rate: 40}
                  - {name: q2, count: 2, topic: "e2e/{run}/q2/{n}", qos: 2, rate: 40, payload-size: 16}
                """);

        Path json = out.resolve("qos-mix.json");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        RunResult r;
        try (LatencyLogs logs = LatencyLogs.beside(json)) {
            r = new LoadRun(
                            scenario,
                            options(Role.ALL, "mix1", out),
                            RunConsole.lines(new PrintStream(console, true, StandardCharsets.UTF_8)),
                            logs)
                    .run();
        }

        brokerKeptEveryConnection(r);
        // The interval logs hold every recorded latency: read back, they add up to the result's totals.
        assertThat(loggedCount(LatencyLogs.file(json, LatencyLogs.Kind.END_TO_END)))
                .isEqualTo(r.endToEnd().count());
        assertThat(loggedCount(LatencyLogs.file(json, LatencyLogs.Kind.PUBLISH_ACK)))
                .isEqualTo(r.publishAck().count());
        assertThat(loggedCount(LatencyLogs.file(json, LatencyLogs.Kind.CONNECT)))
                .isEqualTo(11);
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("measure", "left |");
        assertThat(r.connections().established()).isEqualTo(11);
        assertThat(r.connections().failed()).isZero();
        assertThat(r.messages().lossKnown()).isTrue();
        // 4 fan publishers x 3 subscribers + 2 exact QoS 2 streams, about 40 msg/s each for 3 s.
        assertThat(r.messages().publishedMeasured()).isBetween(600L, 840L);
        assertThat(r.messages().expected()).isGreaterThan(1_000);
        assertThat(r.messages().lost()).isZero();
        assertThat(r.messages().unexpected()).isZero();
        assertThat(r.messages().received()).isEqualTo(r.messages().expected());
        assertThat(r.messages().acked()).isGreaterThan(0);
        assertThat(r.endToEnd().count()).isEqualTo(r.messages().received());
        assertThat(r.publishAck().count()).isGreaterThan(0);
        assertThat(r.connect().count()).isEqualTo(11);
        assertThat(r.timeline()).isNotEmpty();
        assertThat(r.broker().processes()).hasSize(1);
        assertThat(r.broker().rssLoaded()).isPositive();
    }

    @Test
    void withoutWarmUpEveryMessageIsMeasuredAndTheSecondsBySendTimeStartAtTheFirst(@TempDir Path out) throws Exception {
        Scenario scenario = scenario("""
                name: in-phase
                warm-up: 0s
                duration: 3s
                drain: 3s
                targets: [127.0.0.1:1]
                subscribers:
                  - {name: s, count: 2, filter: "phase/{run}/#", ramp: 100}
                publishers:
                  - {name: p, count: 4, topic: "phase/{run}/{n}", rate: 20, phase: aligned, ramp: 20}
                """);

        RunResult r = run(scenario, options(Role.ALL, "phase1", out));

        brokerKeptEveryConnection(r);
        // The publishers connected over 200 ms and waited: nothing went out before the measured window opened.
        assertThat(r.messages().published()).isEqualTo(r.messages().publishedMeasured());
        // 4 publishers x 20 msg/s x 3 s, all sending on the same ticks from the window's first instant.
        assertThat(r.messages().publishedMeasured()).isBetween(236L, 244L);
        assertThat(r.messages().lost()).isZero();
        assertThat(r.messages().received()).isEqualTo(2 * r.messages().publishedMeasured());
        List<SecondLatency> bySend = r.latencyBySendSecond();
        assertThat(bySend).extracting(SecondLatency::second).startsWith(0, 1, 2);
        assertThat(bySend.get(0).messages()).isEqualTo(2 * 4 * 20);
        assertThat(bySend.stream().mapToLong(SecondLatency::messages).sum())
                .isEqualTo(r.endToEnd().count());
        assertThat(bySend.stream().mapToDouble(SecondLatency::maxMillis).max().orElseThrow())
                .isEqualTo(r.endToEnd().max(), within(0.01 * r.endToEnd().max()));
    }

    @Test
    void splitRolesMergeIntoOneAccount(@TempDir Path out) throws Exception {
        Scenario scenario = scenario("""
                name: split
                warm-up: 1s
                duration: 2s
                drain: 2s
                targets: [127.0.0.1:1]
                subscribers:
                  - {name: s, count: 4, filter: "split/{run}/{n%2}", qos: 1}
                publishers:
                  - {name: p, count: 2, topic: "split/{run}/{n}", qos: 1, rate: 50}
                """);
        CompletableFuture<RunResult> subscribers = CompletableFuture.supplyAsync(() -> {
            try {
                return run(scenario, options(Role.SUBSCRIBERS, "split1", out));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(1_500);
        RunResult publishers = run(scenario, options(Role.PUBLISHERS, "split1", out));
        RunResult received = subscribers.get(60, TimeUnit.SECONDS);

        brokerKeptEveryConnection(publishers);
        brokerKeptEveryConnection(received);
        assertThat(publishers.messages().lossKnown()).isFalse();
        assertThat(received.messages().lossKnown()).isFalse();
        RunResult merged = ResultMerger.merge(List.of(publishers, received));
        assertThat(merged.messages().lossKnown()).isTrue();
        assertThat(merged.messages().expected())
                .isEqualTo(2 * publishers.messages().publishedMeasured());
        assertThat(merged.messages().expected()).isGreaterThan(300);
        String timelines = "publishers " + publishers.timeline() + "\nsubscribers " + received.timeline();
        assertThat(merged.messages().lost()).as(timelines).isZero();
        assertThat(merged.messages().received()).isEqualTo(merged.messages().expected());
        assertThat(merged.connections().established()).isEqualTo(6);
    }

    @Test
    void connectOnlyGroupsHoldTheirConnectionsAndLetGo(@TempDir Path out) throws Exception {
        Scenario scenario = scenario("""
                name: hold
                duration: 2s
                targets: [127.0.0.1:1]
                source-addresses: 3
                connections:
                  - {name: idle, count: 60, ramp: 200, keep-alive: 1s}
                """);

        ByteArrayOutputStream console = new ByteArrayOutputStream();
        RunResult r = new LoadRun(
                        scenario,
                        options(Role.ALL, "hold1", out),
                        new PrintStream(console, true, StandardCharsets.UTF_8))
                .run();

        assertThat(r.connections().established()).isEqualTo(60);
        assertThat(r.connections().peakConnected()).isEqualTo(60);
        assertThat(r.connections().lost()).isZero();
        assertThat(r.connect().count()).isEqualTo(60);
        assertThat(r.measuredSeconds())
                .isGreaterThanOrEqualTo((double) Duration.ofSeconds(2).toSeconds());
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("hold");
    }

    @Test
    void warmUpConnectionsAreOpenedAndClosedBeforeTheRampAndNotMeasured(@TempDir Path out) throws Exception {
        Scenario scenario = scenario("""
                name: storm
                duration: 1s
                targets: [127.0.0.1:1]
                connections:
                  - {name: storm, count: 20, ramp: 200, keep-alive: 30s}
                """);

        ByteArrayOutputStream console = new ByteArrayOutputStream();
        RunResult r = new LoadRun(
                        scenario,
                        options(Role.ALL, "warm1", out, 35),
                        new PrintStream(console, true, StandardCharsets.UTF_8))
                .run();

        brokerKeptEveryConnection(r);
        String printed = console.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("warm-up: 35 connections", "warm-up: 35 ready, 0 failed");
        // Only the measured ramp counts: the warm-up's 35 connects are in no figure of the result.
        assertThat(r.connections().attempted()).isEqualTo(20);
        assertThat(r.connections().established()).isEqualTo(20);
        assertThat(r.connections().peakConnected()).isEqualTo(20);
        assertThat(r.connect().count()).isEqualTo(20);
        assertThat(printed.indexOf("warm-up: 35 ready")).isLessThan(printed.indexOf("run warm1"));
    }
}
