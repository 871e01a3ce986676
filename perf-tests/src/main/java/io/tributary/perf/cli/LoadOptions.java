package io.tributary.perf.cli;

import io.tributary.perf.load.Role;
import io.tributary.perf.load.RunOptions;
import io.tributary.perf.scenario.Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** The options {@code run} and {@code compare} share: how the scenario is shaped, run and reported. */
final class LoadOptions {

    @Option(
            names = "--role",
            paramLabel = "R",
            converter = Converters.RoleName.class,
            defaultValue = "all",
            description = {
                "publishers | subscribers | all (default: ${DEFAULT-VALUE}). For two processes, start",
                "subscribers first, give both the same --run-id, then 'merge' the results"
            })
    Role role = Role.ALL;

    @Option(
            names = "--warm-up",
            paramLabel = "D",
            converter = Converters.Span.class,
            description = "override the scenario's warm-up (500ms, 30s, 5m)")
    Duration warmUp;

    @Option(
            names = "--duration",
            paramLabel = "D",
            converter = Converters.Span.class,
            description = "override the scenario's measured duration (500ms, 30s, 5m)")
    Duration duration;

    @Option(
            names = "--scale",
            paramLabel = "F",
            converter = Converters.PositiveNumber.class,
            defaultValue = "1",
            description = "multiply every group's count by F")
    double scale = 1;

    @Option(
            names = "--rate-factor",
            paramLabel = "F",
            converter = Converters.PositiveNumber.class,
            defaultValue = "1",
            description = "multiply every publisher's rate by F (find a broker's limit)")
    double rateFactor = 1;

    @Option(
            names = "--ramp",
            paramLabel = "R",
            converter = Converters.PositiveNumber.class,
            description = "every group connects at R connections per second")
    double ramp;

    @Option(
            names = "--warm-up-connections",
            paramLabel = "N",
            converter = Converters.PositiveWhole.class,
            description = {
                "first open and close N clean connections at the first group's ramp, not",
                "measured: a cold generator adds 100s of ms to its first connects"
            })
    int warmUpConnections;

    @Option(
            names = "--stall-threshold",
            paramLabel = "D",
            converter = Converters.Span.class,
            defaultValue = "50ms",
            description = {
                "list every measured second whose highest e2e latency (by send time) passes D",
                "as a stall (default: ${DEFAULT-VALUE})"
            })
    Duration stallThreshold = Duration.ofMillis(50);

    @Option(
            names = "--io-threads",
            paramLabel = "N",
            converter = Converters.PositiveWhole.class,
            description = "event loop threads (default: one per core)")
    int ioThreads;

    @Option(
            names = "--source-addresses",
            paramLabel = "N",
            converter = Converters.PositiveWhole.class,
            description = "spread connections over 127.0.0.1..127.0.0.N (default: one per 25k)")
    int sourceAddresses;

    @Option(
            names = "--max-connections",
            paramLabel = "N",
            converter = Converters.PositiveWhole.class,
            defaultValue = "2000000",
            description = "refuse scenarios opening more in this process (default: ${DEFAULT-VALUE})")
    int maxConnections = 2_000_000;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            defaultValue = "target/perf-results",
            description = "where results go (default: ${DEFAULT-VALUE}, git-ignored)")
    Path outDir = Path.of("target", "perf-results");

    @Option(names = "--no-html", description = "JSON and latency logs only, no HTML report")
    boolean noHtml;

    /** Load may go to non-loopback targets: only when asked for (the cluster perf Jobs target a Service). */
    @Option(
            names = "--allow-remote",
            description = "accept targets outside loopback (load goes over the network to them)")
    boolean allowRemote;

    /** The in-cluster perf Jobs reach transport nodes that expect a PROXY header from their NLB. */
    @Option(
            names = "--proxy-protocol",
            description = "start every connection with a PROXY protocol v2 header, each from its own address in"
                    + " 198.18.0.0/15 (for brokers that expect one, reached without their load balancer)")
    boolean proxyProtocol;

    @Option(
            names = {"-q", "--quiet"},
            description = "no progress output (bar or lines); warnings, summary and result paths still print")
    boolean quiet;

    RunOptions runOptions(
            Path scenario, List<Endpoint> targets, String runId, String label, List<Long> pids, List<String> patterns) {
        return new RunOptions(
                scenario,
                role,
                targets,
                warmUp,
                duration,
                scale,
                rateFactor,
                ramp,
                runId,
                label,
                outDir,
                pids,
                patterns,
                ioThreads,
                sourceAddresses,
                maxConnections,
                !noHtml,
                allowRemote,
                proxyProtocol,
                warmUpConnections,
                stallThreshold);
    }
}
