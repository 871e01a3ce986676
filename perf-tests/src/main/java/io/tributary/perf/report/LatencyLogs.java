package io.tributary.perf.report;

import io.tributary.perf.measure.Intervals;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The run's latency histograms as HdrHistogram interval logs, one file per kind next to the JSON result
 * ({@code NAME.e2e.hlog}, {@code NAME.publish-ack.hlog}, {@code NAME.connect.hlog}), one interval per sampler tick,
 * written as the run goes so an hours-long run holds nothing in memory. Standard tools read them
 * (HistogramLogProcessor, the HdrHistogram plotters); values are microseconds.
 */
public final class LatencyLogs implements AutoCloseable {

    /** One measured latency and the file name part of its log. */
    public enum Kind {
        END_TO_END("e2e", "publish to delivery"),
        PUBLISH_ACK("publish-ack", "publish to PUBACK/PUBCOMP"),
        CONNECT("connect", "connect start to ready (CONNACK, SUBACK for subscribers)");

        private final String fileTag;
        private final String meaning;

        Kind(String fileTag, String meaning) {
            this.fileTag = fileTag;
            this.meaning = meaning;
        }

        public String fileTag() {
            return fileTag;
        }

        Histogram of(Intervals intervals) {
            return switch (this) {
                case END_TO_END -> intervals.endToEnd();
                case PUBLISH_ACK -> intervals.publishAck();
                case CONNECT -> intervals.connect();
            };
        }
    }

    /** The max column of each interval line in milliseconds (values are microseconds). */
    private static final double MAX_VALUE_UNIT_RATIO = 1000.0;

    private final Map<Kind, PrintStream> streams = new EnumMap<>(Kind.class);
    private final Map<Kind, HistogramLogWriter> writers = new EnumMap<>(Kind.class);
    private final List<Path> files = new ArrayList<>();
    private long baseMillis = -1;
    private boolean closed;
    private boolean failed;

    private LatencyLogs() {}

    /** Logs nowhere (tests and callers that want only the JSON result). */
    public static LatencyLogs none() {
        return new LatencyLogs();
    }

    /** Opens (creating or truncating) the three logs beside {@code resultJson}. */
    public static LatencyLogs beside(Path resultJson) throws IOException {
        LatencyLogs logs = new LatencyLogs();
        Path parent = resultJson.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            for (Kind kind : Kind.values()) {
                Path file = file(resultJson, kind);
                PrintStream stream = new PrintStream(Files.newOutputStream(file), false, "UTF-8");
                logs.streams.put(kind, stream);
                logs.writers.put(kind, new HistogramLogWriter(stream));
                logs.files.add(file);
            }
        } catch (IOException | RuntimeException e) {
            logs.close();
            throw e;
        }
        return logs;
    }

    /** {@code dir/NAME.json} to {@code dir/NAME.<kind>.hlog}. */
    public static Path file(Path resultJson, Kind kind) {
        return ResultFiles.beside(resultJson, "." + kind.fileTag() + ".hlog");
    }

    public List<Path> files() {
        return List.copyOf(files);
    }

    /**
     * Writes the headers: a comment saying what the log holds, the format version, the start time and the base
     * time every interval's time stamp is relative to.
     */
    public synchronized void start(long epochMillis, String about) {
        baseMillis = epochMillis;
        writers.forEach((kind, w) -> {
            w.outputComment(about + " - " + kind.fileTag() + " latency: " + kind.meaning
                    + "; values in microseconds, the max column in milliseconds");
            w.outputLogFormatVersion();
            w.outputStartTime(epochMillis);
            w.setBaseTime(epochMillis);
            w.outputBaseTime(epochMillis);
            w.outputLegend();
        });
    }

    /** One interval per kind, time-stamped by the recorder that filled it. */
    public synchronized void append(Intervals intervals) {
        if (baseMillis < 0) {
            throw new IllegalStateException("start() first");
        }
        writers.forEach((kind, w) -> {
            Histogram h = kind.of(intervals);
            w.outputIntervalHistogram(
                    (h.getStartTimeStamp() - baseMillis) / 1000.0,
                    (h.getEndTimeStamp() - baseMillis) / 1000.0,
                    h,
                    MAX_VALUE_UNIT_RATIO);
        });
    }

    /** True when a write failed (disk full, say): the logs are then incomplete. */
    public synchronized boolean failed() {
        return closed ? failed : streams.values().stream().anyMatch(PrintStream::checkError);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            failed = failed();
            closed = true;
            streams.values().forEach(PrintStream::close);
        }
    }
}
