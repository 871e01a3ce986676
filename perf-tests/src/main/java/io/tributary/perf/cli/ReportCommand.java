package io.tributary.perf.cli;

import io.tributary.perf.report.HtmlReport;
import io.tributary.perf.report.ResultFiles;
import io.tributary.perf.report.RunResult;
import io.tributary.perf.report.TextSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code perf report}: the HTML report of a result, written again (after a tool update, say). */
@Command(name = "report", description = "Write the HTML report of a result again (RESULT.html beside it).")
final class ReportCommand implements Callable<Integer> {

    private final Io io;

    @Parameters(index = "0", paramLabel = "RESULT.json", description = "a result file")
    Path resultFile;

    @Option(
            names = "--stall-threshold",
            paramLabel = "D",
            converter = Converters.Span.class,
            description = "list the seconds whose e2e max passes D as stalls (default: the run's threshold)")
    Duration stallThreshold;

    @Mixin
    HelpOption help;

    ReportCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException {
        RunResult read = ResultFiles.read(resultFile);
        RunResult result = stallThreshold == null ? read : read.withStallThreshold(stallThreshold.toNanos() / 1e6);
        Path html = ScenarioRun.html(resultFile);
        Files.writeString(html, HtmlReport.render(result));
        TextSummary.print(result, io.out());
        io.out().println("report: " + html);
        return 0;
    }
}
