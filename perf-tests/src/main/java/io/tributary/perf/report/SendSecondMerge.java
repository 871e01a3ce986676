package io.tributary.perf.report;

import io.tributary.perf.measure.SecondLatency;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The latency-by-send-second series of merged results. Usually one part has it (only subscribing processes record
 * latencies) and it is kept as it is. When several do, seconds are matched on the wall clock: messages add up and the
 * maximum is the highest of the parts, both exact; p50 and p99 are those of the part with the most messages in that
 * second, an approximation (the per-second histograms are not kept in results).
 */
final class SendSecondMerge {

    private SendSecondMerge() {}

    static List<SecondLatency> merge(List<RunResult> parts) {
        List<RunResult> recorded =
                parts.stream().filter(p -> !p.latencyBySendSecond().isEmpty()).toList();
        if (recorded.size() <= 1) {
            return recorded.isEmpty() ? List.of() : recorded.get(0).latencyBySendSecond();
        }
        TreeMap<Long, List<SecondLatency>> byWallSecond = new TreeMap<>();
        for (RunResult p : recorded) {
            for (SecondLatency s : p.latencyBySendSecond()) {
                byWallSecond
                        .computeIfAbsent(Math.floorDiv(s.epochMillis() + 500, 1000), k -> new ArrayList<>())
                        .add(s);
            }
        }
        long first = byWallSecond.firstKey();
        List<SecondLatency> merged = new ArrayList<>();
        for (Map.Entry<Long, List<SecondLatency>> e : byWallSecond.entrySet()) {
            List<SecondLatency> same = e.getValue();
            SecondLatency largest = same.stream()
                    .max(Comparator.comparingLong(SecondLatency::messages))
                    .orElseThrow();
            merged.add(new SecondLatency(
                    (int) (e.getKey() - first),
                    e.getKey() * 1000,
                    same.stream().mapToLong(SecondLatency::messages).sum(),
                    largest.p50Millis(),
                    largest.p99Millis(),
                    same.stream().mapToDouble(SecondLatency::maxMillis).max().orElse(-1)));
        }
        return merged;
    }
}
