package io.tributary.perf.load;

import io.tributary.perf.scenario.Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Typed command line of {@code run} (and of each side of {@code compare}).
 *
 * @param targets         replaces every group's targets when not empty
 * @param warmUp          replaces the scenario's warm-up when not null
 * @param duration        replaces the scenario's duration when not null
 * @param scale           multiplies every group's count (1 = as written)
 * @param rateFactor      multiplies every publisher's rate (1 = as written)
 * @param ramp            connections per second for every group; 0 = as written
 * @param runId           shared by the two processes of a split run; random when null
 * @param label           names the target in results and reports (e.g. tributary, mosquitto)
 * @param brokerPids      processes to sample for CPU and RSS
 * @param brokerPatterns  pgrep -f patterns resolved to more PIDs at start
 * @param maxConnections  refuse to start when the scenario would open more than this in one process
 * @param warmUpConnections connections opened and closed before the measured ramp, not measured (0 = none): a
 *                        cold load generator (JIT, first connections of its event loops) adds hundreds of
 *                        milliseconds to the first connects whichever broker it measures
 * @param proxyProtocol   every connection starts with a PROXY protocol v2 header claiming its own source address
 *                        (198.18.0.0/15), for transport nodes that expect one and are reached without their balancer
 * @param stallThreshold  a second of the measured window whose highest end-to-end latency (by send time) passes
 *                        this is listed as a stall
 */
public record RunOptions(
        Path scenarioFile,
        Role role,
        List<Endpoint> targets,
        Duration warmUp,
        Duration duration,
        double scale,
        double rateFactor,
        double ramp,
        String runId,
        String label,
        Path outDir,
        List<Long> brokerPids,
        List<String> brokerPatterns,
        int ioThreads,
        int sourceAddresses,
        int maxConnections,
        boolean html,
        boolean allowRemote,
        boolean proxyProtocol,
        int warmUpConnections,
        Duration stallThreshold) {

    public RunOptions {
        targets = List.copyOf(targets);
        brokerPids = List.copyOf(brokerPids);
        brokerPatterns = List.copyOf(brokerPatterns);
    }

    public RunOptions withTargets(List<Endpoint> newTargets, String newLabel, List<Long> pids, List<String> patterns) {
        return new RunOptions(
                scenarioFile,
                role,
                newTargets,
                warmUp,
                duration,
                scale,
                rateFactor,
                ramp,
                runId,
                newLabel,
                outDir,
                pids,
                patterns,
                ioThreads,
                sourceAddresses,
                maxConnections,
                html,
                allowRemote,
                proxyProtocol,
                warmUpConnections,
                stallThreshold);
    }

    public RunOptions withRunId(String newRunId) {
        return new RunOptions(
                scenarioFile,
                role,
                targets,
                warmUp,
                duration,
                scale,
                rateFactor,
                ramp,
                newRunId,
                label,
                outDir,
                brokerPids,
                brokerPatterns,
                ioThreads,
                sourceAddresses,
                maxConnections,
                html,
                allowRemote,
                proxyProtocol,
                warmUpConnections,
                stallThreshold);
    }
}
