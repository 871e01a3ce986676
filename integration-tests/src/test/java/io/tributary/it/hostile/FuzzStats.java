package io.tributary.it.hostile;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/** What the fuzz workers sent and saw, shared by all of them; {@link #failures} are what the test asserts on. */
final class FuzzStats {

    final LongAdder packets = new LongAdder();
    final LongAdder mutated = new LongAdder();
    final LongAdder connections = new LongAdder();
    final LongAdder probes = new LongAdder();
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    /** The longest a well-formed pipelined stream took to be answered, in nanoseconds. */
    final LongAccumulator slowestStream = new LongAccumulator(Math::max, 0);

    void streamAnswered(long nanos) {
        slowestStream.accumulate(nanos);
    }

    void count(String what) {
        counts.computeIfAbsent(what, k -> new LongAdder()).increment();
    }

    void fail(String what) {
        if (failures.size() < 50) {
            failures.add(what);
        }
    }

    /** Counts by label, sorted, for the test's report. */
    Map<String, Long> counts() {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }
}
