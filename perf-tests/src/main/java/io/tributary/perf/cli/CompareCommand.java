package io.tributary.perf.cli;

import io.tributary.perf.compare.CompareRun;
import io.tributary.perf.load.LoadRun;
import io.tributary.perf.load.Role;
import io.tributary.perf.load.RunOptions;
import io.tributary.perf.progress.ProgressContext;
import io.tributary.perf.report.CompareReport;
import io.tributary.perf.report.ResultFiles;
import io.tributary.perf.report.RunResult;
import io.tributary.perf.report.TextSummary;
import io.tributary.perf.scenario.Scenario;
import io.tributary.perf.scenario.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code perf compare}: the same scenario against two targets in turn, then the figures side by side. */
@Command(
        name = "compare",
        sortOptions = false,
        description = "Run the same scenario against two targets in turn and print each figure of both with"
                + " their ratio.",
        footer = {
            "",
            "Each side writes its own result, report and latency logs under --out (own run id), then"
                    + " OUT/compare-<scenario>-<A>-vs-<B>.json holds the table and .html the table and both sides on"
                    + " the same charts (latency by percentile on log scales, rates over time).",
            "The progress shows which side runs (compare 1/2 A) and the time left for the whole comparison."
        })
final class CompareCommand implements Callable<Integer> {

    private final Io io;

    @Parameters(index = "0", paramLabel = "SCENARIO.yaml", description = "the scenario file")
    Path scenarioFile;

    @Option(
            names = "--target",
            paramLabel = "LABEL=EP[,EP]",
            description = "a side: its label and endpoints (exactly twice; commas: several endpoints)")
    List<String> targets = new ArrayList<>();

    @Option(
            names = "--broker-pid",
            paramLabel = "LABEL=PID",
            description = "sample this process of that side (repeatable)")
    List<String> brokerPids = new ArrayList<>();

    @Option(
            names = "--broker-pgrep",
            paramLabel = "LABEL=PATTERN",
            description = "sample the processes of that side matching PATTERN (pgrep -f; repeatable)")
    List<String> brokerPatterns = new ArrayList<>();

    @Option(
            names = "--hops",
            paramLabel = "LABEL=URL",
            description = "a Prometheus page of that side's services, scraped each second for their hop histograms"
                    + " (repeatable; see run --hops)")
    List<String> hops = new ArrayList<>();

    @Option(
            names = "--pause",
            paramLabel = "D",
            converter = Converters.Span.class,
            defaultValue = "5s",
            description = "pause between the two runs (default: ${DEFAULT-VALUE})")
    Duration pause = Duration.ofSeconds(5);

    @Mixin
    LoadOptions load;

    @Mixin
    HelpOption help;

    CompareCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<CompareSides.Side> sides = CompareSides.parse(targets, brokerPids, brokerPatterns);
        int hopPages = sides.stream()
                .mapToInt(s -> CompareSides.hopPages(hops, s.label()).size())
                .sum();
        if (hopPages != hops.size()) {
            throw new IllegalArgumentException(
                    "compare: every --hops LABEL=URL must name one of the two --target labels");
        }
        if (load.role != Role.ALL) {
            throw new IllegalArgumentException("compare runs both roles itself; drop --role");
        }
        List<RunResult> results = new ArrayList<>();
        for (int i = 0; i < sides.size(); i++) {
            CompareSides.Side side = sides.get(i);
            RunOptions options = load.runOptions(
                    scenarioFile, side.targets(), ScenarioRun.newRunId(), side.label(), side.pids(), side.patterns());
            Scenario scenario = ScenarioRun.prepare(ScenarioLoader.load(scenarioFile), options);
            double later = (sides.size() - 1 - i)
                    * (pause.toMillis() / 1000.0
                            + LoadRun.plannedLength(scenario, Role.ALL).toMillis() / 1000.0);
            ProgressContext context = new ProgressContext(
                    String.format(Locale.ROOT, "compare %d/%d %s", i + 1, sides.size(), side.label()), later);
            io.out().println("== compare: " + side.label() + " " + side.targets());
            ScenarioRun.Outcome outcome = ScenarioRun.runAndWrite(
                    scenario,
                    options,
                    ScenarioRun.defaultResultFile(scenario, options),
                    io,
                    load.quiet,
                    context,
                    CompareSides.hopPages(hops, side.label()));
            RunResult result = outcome.result();
            TextSummary.print(result, io.out());
            outcome.hopLines().forEach(io.out()::println);
            results.add(result);
            if (i < sides.size() - 1) {
                Thread.sleep(pause.toMillis());
            }
        }
        String a = sides.get(0).label();
        String b = sides.get(1).label();
        List<CompareRun.Row> rows = CompareRun.rows(results.get(0), results.get(1));
        io.out().println();
        io.out().println("== " + results.get(0).scenario() + ": " + a + " vs " + b);
        CompareRun.print(a, b, rows, io.out());
        Path summary = load.outDir.resolve(String.format(
                Locale.ROOT, "compare-%s-%s-vs-%s.json", results.get(0).scenario(), a, b));
        Files.createDirectories(load.outDir);
        Files.writeString(
                summary, ResultFiles.toJson(new CompareSummary(results.get(0).scenario(), a, b, rows)));
        io.out().println("comparison: " + summary);
        if (!load.noHtml) {
            Path page = ScenarioRun.html(summary);
            Files.writeString(
                    page, CompareReport.render(results.get(0), results.get(1), a, b, CompareRun.reportRows(rows)));
            io.out().println("comparison report: " + page);
        }
        return 0;
    }

    /** What compare writes besides the two run results. */
    record CompareSummary(String scenario, String a, String b, List<CompareRun.Row> rows) {}
}
