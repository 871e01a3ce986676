package io.tributary.perf.load;

import io.tributary.perf.measure.TimeSample;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** Facts gathered during a {@link LoadRun} that its result needs besides the metrics. */
final class RunFacts {
    Instant started;
    int planned;
    long established;
    int peakConnected;
    double rampSeconds;
    double measuredSeconds;
    double elapsedSeconds;
    long rssBaseline;
    long rssLoaded;
    long connectionsAtLoaded;
    boolean epoll;
    double loadAverageStart;
    List<String> brokerLabels = List.of();
    Map<Long, String> brokerLabelsByPid = Map.of();
    Map<Long, Long> rssBaselineByPid = Map.of();
    Map<Long, Long> rssLoadedByPid = Map.of();
    Map<Long, Double> cpuByPid = Map.of();
    List<TimeSample> samples = List.of();
    Map<String, LongAdder> failureReasons = Map.of();
    List<String> warnings = List.of();
}
