package io.tributary.perf.cli;

import io.tributary.perf.hops.HopScraper;
import io.tributary.perf.hops.HopStallReport;
import io.tributary.perf.load.LoadRun;
import io.tributary.perf.load.RunOptions;
import io.tributary.perf.progress.ProgressContext;
import io.tributary.perf.progress.RunConsole;
import io.tributary.perf.report.HtmlReport;
import io.tributary.perf.report.LatencyLogs;
import io.tributary.perf.report.ResultFiles;
import io.tributary.perf.report.RunResult;
import io.tributary.perf.scenario.Scenario;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

/**
 * One load run as {@code run} and each side of {@code compare} do it: shape the scenario by the options, run it with
 * its progress on the console and its latency histograms logged, then write the JSON result and the HTML report.
 */
final class ScenarioRun {

    private ScenarioRun() {}

    static Scenario prepare(Scenario loaded, RunOptions options) {
        Scenario s = loaded.scaled(options.scale())
                .withRateFactor(options.rateFactor())
                .withTiming(options.warmUp(), options.duration())
                .withMachine(options.sourceAddresses(), options.ioThreads());
        s = options.ramp() > 0 ? s.withRamp(options.ramp()) : s;
        return options.targets().isEmpty() ? s : s.withTargets(options.targets());
    }

    /** {@code OUT/<scenario>-<label or role>-<run id>.json}. */
    static Path defaultResultFile(Scenario scenario, RunOptions options) {
        return options.outDir()
                .resolve(String.format(
                        Locale.ROOT,
                        "%s-%s-%s.json",
                        scenario.name(),
                        options.label() != null
                                ? options.label()
                                : options.role().label(),
                        options.runId()));
    }

    /** A run's result, and the hop lines of its stall report when hop pages were scraped (else none). */
    record Outcome(RunResult result, List<String> hopLines) {}

    /**
     * Runs and writes {@code json}, its HTML report (unless --no-html) and the latency logs beside it. The logs are
     * opened first, so an unwritable output directory fails before any connection is made. With {@code hopPages},
     * the services' hop histograms are scraped each second of the run and written beside it ({@code .hops.csv}).
     */
    static Outcome runAndWrite(
            Scenario scenario,
            RunOptions options,
            Path json,
            Io io,
            boolean quiet,
            ProgressContext context,
            List<URI> hopPages)
            throws IOException, InterruptedException {
        RunResult result;
        LatencyLogs logs = LatencyLogs.beside(json);
        HopScraper hops = hopPages.isEmpty() ? null : new HopScraper(hopPages).start();
        try {
            RunConsole console = RunConsole.of(io.out(), io.terminal(), io.width(), quiet, context);
            result = new LoadRun(scenario, options, console, logs).run();
        } finally {
            logs.close();
            if (hops != null) {
                hops.close();
            }
        }
        if (logs.failed()) {
            io.out().println("WARNING: writing the latency logs failed, they are incomplete: " + logs.files());
        }
        ResultFiles.write(result, json);
        if (options.html()) {
            Files.writeString(html(json), HtmlReport.render(result));
            io.out().println("report: " + html(json));
        }
        io.out()
                .println("latency logs (HdrHistogram, microseconds): "
                        + logs.files().stream().map(Path::toString).collect(Collectors.joining(" ")));
        if (hops == null) {
            return new Outcome(result, List.of());
        }
        Path csv = ResultFiles.beside(json, ".hops.csv");
        hops.writeCsv(csv);
        io.out().println("hop histograms per second: " + csv);
        return new Outcome(
                result, HopStallReport.lines(result.latencyBySendSecond(), result.stallThresholdMillis(), hops));
    }

    static Path html(Path json) {
        return ResultFiles.beside(json, ".html");
    }

    static String newRunId() {
        long sixBase36Digits = 36L * 36 * 36 * 36 * 36;
        return Long.toString(ThreadLocalRandom.current().nextLong(sixBase36Digits, sixBase36Digits * 36), 36)
                .toLowerCase(Locale.ROOT);
    }
}
