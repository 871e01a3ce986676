package io.tributary.perf.cli;

import io.tributary.perf.load.RunOptions;
import io.tributary.perf.progress.ProgressContext;
import io.tributary.perf.report.RunResult;
import io.tributary.perf.report.TextSummary;
import io.tributary.perf.scenario.Endpoint;
import io.tributary.perf.scenario.Scenario;
import io.tributary.perf.scenario.ScenarioLoader;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code perf run}: one scenario, or one role of it. */
@Command(
        name = "run",
        description = "Run one scenario (or one role of it).",
        sortOptions = false,
        footer = {
            "",
            "Writes OUT/<scenario>-<label or role>-<run id>.json (or --out-file), its .html report, and one"
                    + " HdrHistogram",
            "interval log per latency kind beside it: .e2e.hlog, .publish-ack.hlog,"
                    + " .connect.hlog (1 s intervals, microseconds).",
            "Exit code 1 when no connection could be" + " established, 2 for a bad command line or scenario."
        })
final class RunCommand implements Callable<Integer> {

    private final Io io;

    @Parameters(index = "0", paramLabel = "SCENARIO.yaml", description = "the scenario file")
    Path scenarioFile;

    @Option(
            names = "--target",
            paramLabel = "EP",
            converter = Converters.Target.class,
            description = "replace every group's targets (repeatable; clients spread round robin)")
    List<Endpoint> targets = new ArrayList<>();

    @Option(
            names = "--run-id",
            paramLabel = "ID",
            converter = Converters.Id.class,
            description = "shared id (client ids and {run} placeholders); random by default")
    String runId;

    @Option(
            names = "--label",
            paramLabel = "NAME",
            converter = Converters.Id.class,
            description = "names the target in results (e.g. tributary, mosquitto)")
    String label;

    @Option(names = "--broker-pid", paramLabel = "PID", description = "sample this process's CPU and RSS (repeatable)")
    List<Long> brokerPids = new ArrayList<>();

    @Option(
            names = "--broker-pgrep",
            paramLabel = "PATTERN",
            description = "sample every process whose command line matches (pgrep -f; repeatable)")
    List<String> brokerPatterns = new ArrayList<>();

    @Option(names = "--out-file", paramLabel = "FILE.json", description = "exact result file (instead of OUT/...)")
    Path outFile;

    @Option(
            names = "--hops",
            paramLabel = "URL",
            description =
                    "a service's Prometheus page on its management port (e.g. http://127.0.0.1:8081/actuator/prometheus), scraped"
                            + " each second for its hop histograms: the stall report then names the hops of each stalled"
                            + " second (repeatable)")
    List<URI> hops = new ArrayList<>();

    @Mixin
    LoadOptions load;

    @Mixin
    HelpOption help;

    RunCommand(Io io) {
        this.io = io;
    }

    RunOptions runOptions() {
        return load.runOptions(
                scenarioFile,
                targets,
                runId != null ? runId : ScenarioRun.newRunId(),
                label,
                brokerPids,
                brokerPatterns);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        RunOptions options = runOptions();
        Scenario scenario = ScenarioRun.prepare(ScenarioLoader.load(scenarioFile), options);
        Path json = outFile != null ? outFile : ScenarioRun.defaultResultFile(scenario, options);
        ScenarioRun.Outcome outcome =
                ScenarioRun.runAndWrite(scenario, options, json, io, load.quiet, ProgressContext.SINGLE, hops);
        RunResult result = outcome.result();
        TextSummary.print(result, io.out());
        outcome.hopLines().forEach(io.out()::println);
        io.out().println("result: " + json);
        return result.connections().established() == 0 && result.connections().planned() > 0 ? 1 : 0;
    }
}
