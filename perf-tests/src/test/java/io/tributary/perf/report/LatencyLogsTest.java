package io.tributary.perf.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.perf.measure.Intervals;
import io.tributary.perf.measure.LiveMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyLogsTest {

    @Test
    void writes_one_readable_interval_log_per_latency_kind_beside_the_result(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("results/fan-out-all-abc123.json");
        LiveMetrics metrics = new LiveMetrics();
        long base = System.currentTimeMillis();
        try (LatencyLogs logs = LatencyLogs.beside(json)) {
            metrics.harvest();
            logs.start(base, "perf run abc123");
            for (int second = 0; second < 3; second++) {
                for (int i = 0; i <= second; i++) {
                    metrics.recordEndToEnd(1_000 * (i + 1));
                }
                metrics.recordAck(500);
                Thread.sleep(20);
                logs.append(metrics.harvest());
            }
            metrics.recordConnect(2_500);
            logs.append(metrics.harvest());
            assertThat(logs.files())
                    .containsExactly(
                            dir.resolve("results/fan-out-all-abc123.e2e.hlog"),
                            dir.resolve("results/fan-out-all-abc123.publish-ack.hlog"),
                            dir.resolve("results/fan-out-all-abc123.connect.hlog"));
        }

        Read e2e = read(LatencyLogs.file(json, LatencyLogs.Kind.END_TO_END));
        assertThat(e2e.intervals).isEqualTo(4);
        assertThat(e2e.total.getTotalCount())
                .isEqualTo(metrics.endToEndTotal().getTotalCount())
                .isEqualTo(6);
        assertThat(e2e.total.getMaxValue()).isBetween(2_999L, 3_001L);
        assertThat(e2e.startTimeSec).isEqualTo(base / 1000.0);
        assertThat(read(LatencyLogs.file(json, LatencyLogs.Kind.PUBLISH_ACK))
                        .total
                        .getTotalCount())
                .isEqualTo(3);
        assertThat(read(LatencyLogs.file(json, LatencyLogs.Kind.CONNECT)).total.getTotalCount())
                .isEqualTo(1);
        assertThat(Files.readString(LatencyLogs.file(json, LatencyLogs.Kind.END_TO_END)))
                .startsWith("#perf run abc123 - e2e latency")
                .contains(
                        "values in microseconds",
                        "#[StartTime: ",
                        "#[BaseTime: ",
                        "\"StartTimestamp\",\"Interval_Length\"");
    }

    @Test
    void none_writes_nothing_and_accepts_intervals() {
        LatencyLogs logs = LatencyLogs.none();
        logs.start(System.currentTimeMillis(), "x");
        Histogram h = LiveMetrics.newHistogram();
        logs.append(new Intervals(h, h, h));
        logs.close();
        assertThat(logs.files()).isEmpty();
        assertThat(logs.failed()).isFalse();
    }

    private record Read(Histogram total, int intervals, double startTimeSec) {}

    private static Read read(Path log) throws Exception {
        HistogramLogReader reader = new HistogramLogReader(log.toFile());
        Histogram total = LiveMetrics.newHistogram();
        int intervals = 0;
        for (Histogram h = (Histogram) reader.nextIntervalHistogram();
                h != null;
                h = (Histogram) reader.nextIntervalHistogram()) {
            total.add(h);
            intervals++;
        }
        return new Read(total, intervals, reader.getStartTimeSec());
    }
}
