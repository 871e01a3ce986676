package io.tributary.perf.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.perf.measure.Ledger;
import io.tributary.perf.measure.LiveMetrics;
import io.tributary.perf.measure.SecondLatency;
import io.tributary.perf.measure.TimeSample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultMergerTest {

    private static final String SCENARIO = """
            name: split
            targets: [127.0.0.1:1883]
            subscribers:
              - {name: s, count: 2, filter: "a/#"}
            publishers:
              - {name: p, count: 1, topic: "a/{n}"}
            """;

    private static RunResult part(
            String role,
            Ledger ledger,
            boolean pubSide,
            boolean subSide,
            long e2eMicros,
            double measured,
            List<TimeSample> timeline,
            String runId) {
        return part(role, ledger, pubSide, subSide, e2eMicros, measured, timeline, runId, List.of());
    }

    private static RunResult part(
            String role,
            Ledger ledger,
            boolean pubSide,
            boolean subSide,
            long e2eMicros,
            double measured,
            List<TimeSample> timeline,
            String runId,
            List<SecondLatency> bySendSecond) {
        Histogram e2e = LiveMetrics.newHistogram();
        if (e2eMicros > 0) {
            e2e.recordValue(e2eMicros);
        }
        String encoded = HistogramCodec.encode(e2e);
        String empty = HistogramCodec.encode(LiveMetrics.newHistogram());
        return new RunResult(
                RunResult.FORMAT,
                "split",
                "",
                "broker",
                role,
                runId,
                1.0,
                List.of("127.0.0.1:1883"),
                "2026-01-01T00:00:0" + (pubSide ? "1" : "0") + "Z",
                10,
                measured,
                10,
                new RunResult.Machine(2, 1L << 34, "Linux", "JDK", "4.2", true, 0.5, 0.7),
                new RunResult.Connections(
                        pubSide ? 1 : 2, pubSide ? 1 : 2, pubSide ? 1 : 2, pubSide ? 1 : 2, 0, 0, 1, 1, Map.of()),
                new RunResult.Messages(
                        pubSide ? 100 : 0,
                        pubSide ? 100 : 0,
                        0,
                        0,
                        0,
                        subSide ? 190 : 0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        false,
                        0,
                        0),
                HistogramCodec.percentiles(e2e),
                RunResult.Percentiles.NONE,
                RunResult.Percentiles.NONE,
                RunResult.Broker.NONE,
                10,
                List.of(),
                timeline,
                bySendSecond,
                50,
                new RunResult.Histograms(encoded, empty, empty),
                ledger,
                pubSide,
                subSide,
                SCENARIO);
    }

    private static TimeSample sample(long epochSecond, int connected, long sent, long received, double p50) {
        return new TimeSample(
                0, epochSecond * 1000, "measure", connected, 0, sent, received, 0, p50, p50, p50, 0, 0, 5);
    }

    @Test
    void publisherAndSubscriberHalvesMakeOneResultWithLossKnown() {
        RunResult publishers = part(
                "publishers",
                new Ledger(List.of(new Ledger.PublisherSent(0, new long[] {100})), new long[0]),
                true,
                false,
                0,
                10,
                List.of(sample(1000, 1, 10, 0, -1), sample(1001, 1, 10, 0, -1)),
                "r1");
        RunResult subscribers = part(
                "subscribers",
                new Ledger(List.of(), new long[] {0, 0, 100, 2, 0, 1, 90, 0}),
                false,
                true,
                4_000,
                9,
                List.of(sample(1001, 2, 0, 20, 4), sample(1002, 2, 0, 20, 4)),
                "r1");

        RunResult merged = ResultMerger.merge(List.of(publishers, subscribers));

        assertThat(merged.role()).isEqualTo("merged(publishers+subscribers)");
        assertThat(merged.messages().lossKnown()).isTrue();
        assertThat(merged.messages().expected()).isEqualTo(200);
        assertThat(merged.messages().received()).isEqualTo(190);
        assertThat(merged.messages().lost()).isEqualTo(10);
        assertThat(merged.messages().duplicates()).isEqualTo(2);
        assertThat(merged.measuredSeconds()).isEqualTo(10);
        assertThat(merged.messages().throughputIn()).isEqualTo(10);
        assertThat(merged.messages().throughputOut()).isEqualTo(19);
        assertThat(merged.connections().established()).isEqualTo(3);
        assertThat(merged.endToEnd().count()).isEqualTo(1);
        assertThat(merged.endToEnd().p50()).isEqualTo(4.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(merged.timeline()).extracting(TimeSample::second).containsExactly(0.0, 1.0, 2.0);
        TimeSample overlap = merged.timeline().get(1);
        assertThat(overlap.connected()).isEqualTo(3);
        assertThat(overlap.sentRate()).isEqualTo(10);
        assertThat(overlap.receivedRate()).isEqualTo(20);
        assertThat(overlap.p50Millis()).isEqualTo(4);
        assertThat(merged.startedAt()).isEqualTo("2026-01-01T00:00:00Z");
    }

    @Test
    void differentRunIdsAreFlaggedAndDifferentScenariosRefused() {
        RunResult a = part("publishers", Ledger.EMPTY, true, false, 0, 10, List.of(), "r1");
        RunResult b = part("subscribers", Ledger.EMPTY, false, true, 0, 10, List.of(), "r2");
        assertThat(ResultMerger.merge(List.of(a, b)).warnings()).anyMatch(w -> w.contains("run ids differ"));

        RunResult other = new RunResult(
                a.format(),
                "other",
                a.description(),
                a.label(),
                a.role(),
                a.runId(),
                a.scale(),
                a.targets(),
                a.startedAt(),
                a.elapsedSeconds(),
                a.measuredSeconds(),
                a.offeredRate(),
                a.machine(),
                a.connections(),
                a.messages(),
                a.endToEnd(),
                a.publishAck(),
                a.connect(),
                a.broker(),
                a.generatorCpuAverage(),
                a.warnings(),
                a.timeline(),
                a.latencyBySendSecond(),
                a.stallThresholdMillis(),
                a.histograms(),
                a.ledger(),
                a.hasPublisherSide(),
                a.hasSubscriberSide(),
                a.scenarioText());
        assertThatThrownBy(() -> ResultMerger.merge(List.of(a, other))).hasMessageContaining("different scenarios");
    }

    @Test
    void resultsSurviveJsonAndRenderAsSelfContainedHtml(@TempDir Path dir) throws Exception {
        RunResult r = part(
                "all",
                new Ledger(List.of(new Ledger.PublisherSent(0, new long[] {3})), new long[] {0, 0, 3, 0, 0, 1, 3, 0}),
                true,
                true,
                2_500,
                10,
                List.of(sample(1000, 3, 1, 2, 2.5), sample(1001, 3, 1, 2, -1)),
                "r1");
        Path file = dir.resolve("r.json");

        ResultFiles.write(r, file);
        RunResult back = ResultFiles.read(file);

        assertThat(back.ledger().streams()).containsExactly(0, 0, 3, 0, 0, 1, 3, 0);
        assertThat(back.timeline()).isEqualTo(r.timeline());
        assertThat(back.endToEnd()).isEqualTo(r.endToEnd());
        assertThat(HistogramCodec.decode(back.histograms().endToEnd()).getTotalCount())
                .isEqualTo(1);
        String html = HtmlReport.render(back);
        assertThat(html)
                .startsWith("<!DOCTYPE html>")
                .contains("<svg", "<polyline", "End-to-end latency")
                .doesNotContain("<script", "http://", "https://");
        Files.writeString(dir.resolve("x.json"), "{\"format\": 99}");
        assertThatThrownBy(() -> ResultFiles.read(dir.resolve("x.json"))).hasMessageContaining("format 99");
    }

    @Test
    void theLatencyBySendSecondSurvivesJsonMergesOnTheWallClockAndOldResultsStillRead(@TempDir Path dir)
            throws Exception {
        long t = 1_800_000_000_000L;
        RunResult publishers = part("publishers", Ledger.EMPTY, true, false, 0, 10, List.of(), "r1");
        RunResult one = part(
                "subscribers",
                Ledger.EMPTY,
                false,
                true,
                1_000,
                10,
                List.of(),
                "r1",
                List.of(new SecondLatency(0, t, 10, 2, 4, 5), new SecondLatency(1, t + 1000, 10, 3, 250, 300)));
        // A second subscribing process whose series started a second later, its clock 20 ms apart.
        RunResult other = part(
                "subscribers",
                Ledger.EMPTY,
                false,
                true,
                1_000,
                10,
                List.of(),
                "r1",
                List.of(new SecondLatency(0, t + 1020, 30, 2.5, 6, 8)));

        assertThat(ResultMerger.merge(List.of(publishers, one)).latencyBySendSecond())
                .isEqualTo(one.latencyBySendSecond());
        assertThat(ResultMerger.merge(List.of(publishers, one, other)).latencyBySendSecond())
                .containsExactly(new SecondLatency(0, t, 10, 2, 4, 5), new SecondLatency(1, t + 1000, 40, 2.5, 6, 300));

        Path file = dir.resolve("r.json");
        ResultFiles.write(one.withStallThreshold(20), file);
        RunResult back = ResultFiles.read(file);
        assertThat(back.latencyBySendSecond()).isEqualTo(one.latencyBySendSecond());
        assertThat(back.stallThresholdMillis()).isEqualTo(20);
        // A result written before the series existed reads with none and the default threshold.
        String old = Files.readString(file)
                .replaceAll("(?s)\\s*\"latencyBySendSecond\"\\s*:\\s*\\[.*?]\\s*,", "")
                .replaceAll("\\s*\"stallThresholdMillis\"\\s*:\\s*[0-9.]+\\s*,", "");
        assertThat(old).doesNotContain("latencyBySendSecond", "stallThresholdMillis");
        Files.writeString(file, old);
        RunResult older = ResultFiles.read(file);
        assertThat(older.latencyBySendSecond()).isEmpty();
        assertThat(older.stallThresholdMillis()).isEqualTo(StallReport.DEFAULT_THRESHOLD_MILLIS);
        assertThat(HtmlReport.render(older)).doesNotContain("Stalls");
    }
}
