package io.tributary.perf.load;

import io.tributary.perf.measure.ProcessSampler;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** The broker processes a run samples: the PIDs given, those the pgrep patterns find, and all their descendants. */
final class BrokerProcesses {

    private BrokerProcesses() {}

    /** @param warn told about a pattern that matched nothing (the run goes on without sampling it) */
    static List<Long> resolve(List<Long> givenPids, List<String> patterns, Consumer<String> warn) {
        List<Long> pids = new ArrayList<>(givenPids);
        for (String pattern : patterns) {
            List<Long> found = ProcessSampler.pgrep(pattern);
            if (found.isEmpty()) {
                warn.accept("--broker-pgrep '" + pattern + "' matched no process; broker CPU/RSS not sampled for it");
            }
            found.stream().filter(p -> !pids.contains(p)).forEach(pids::add);
        }
        // A broker is often a tree (a launcher and its services, PostgreSQL and its backends): sample all of it.
        for (Long pid : List.copyOf(pids)) {
            ProcessHandle.of(pid)
                    .ifPresent(h -> h.descendants()
                            .map(ProcessHandle::pid)
                            .filter(p -> !pids.contains(p))
                            .forEach(pids::add));
        }
        return pids;
    }
}
