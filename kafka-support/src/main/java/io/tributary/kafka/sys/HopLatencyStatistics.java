package io.tributary.kafka.sys;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.tributary.common.sys.DataPathHop;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code $SYS} latency figures of the hops one service measures, read from its Micrometer timers: p50 and p99
 * over the timer's recent window (Micrometer's decaying window, two minutes by default), in milliseconds. The
 * timers must publish the percentiles 0.5 and 0.99; a hop without a sample in the window reports 0.
 */
public final class HopLatencyStatistics {

    private final Map<DataPathHop, Timer> timers;

    public HopLatencyStatistics(Map<DataPathHop, Timer> timers) {
        this.timers = new EnumMap<>(timers);
    }

    /** Statistic name ({@link DataPathHop#statistic}) → payload ({@link DataPathHop#millis}), hop by hop. */
    public Map<String, String> statistics() {
        Map<String, String> out = new LinkedHashMap<>();
        timers.forEach((hop, timer) -> {
            double p50 = 0;
            double p99 = 0;
            for (ValueAtPercentile value : timer.takeSnapshot().percentileValues()) {
                if (value.percentile() == 0.5) {
                    p50 = value.value(TimeUnit.MILLISECONDS);
                } else if (value.percentile() == 0.99) {
                    p99 = value.value(TimeUnit.MILLISECONDS);
                }
            }
            out.put(hop.statistic(DataPathHop.P50), DataPathHop.millis(p50));
            out.put(hop.statistic(DataPathHop.P99), DataPathHop.millis(p99));
        });
        return out;
    }
}
