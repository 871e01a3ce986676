package io.tributary.perf.cli;

import io.tributary.perf.report.HtmlReport;
import io.tributary.perf.report.ResultFiles;
import io.tributary.perf.report.ResultMerger;
import io.tributary.perf.report.RunResult;
import io.tributary.perf.report.TextSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code perf merge}: the results of the two processes of a split run as one account. */
@Command(
        name = "merge",
        sortOptions = false,
        description = "Combine the results of --role publishers and --role subscribers (same --run-id) into one.",
        footer = {
            "",
            "Writes <first result>-merged-<run id>.json beside the first result (or --out-file) and its"
                    + " .html report."
        })
final class MergeCommand implements Callable<Integer> {

    private final Io io;

    @Parameters(paramLabel = "RESULT.json", arity = "0..*", description = "two or more result files")
    List<Path> results = new ArrayList<>();

    @Option(names = "--out-file", paramLabel = "FILE.json", description = "exact merged result file")
    Path outFile;

    @Option(names = "--no-html", description = "JSON only")
    boolean noHtml;

    @Mixin
    HelpOption help;

    MergeCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException {
        if (results.size() < 2) {
            throw new IllegalArgumentException("merge needs two or more result files");
        }
        List<RunResult> parts = new ArrayList<>();
        for (Path p : results) {
            parts.add(ResultFiles.read(p));
        }
        RunResult merged = ResultMerger.merge(parts);
        Path json = outFile != null
                ? outFile
                : results.get(0).resolveSibling(merged.scenario() + "-merged-" + merged.runId() + ".json");
        ResultFiles.write(merged, json);
        if (!noHtml) {
            Files.writeString(ScenarioRun.html(json), HtmlReport.render(merged));
        }
        TextSummary.print(merged, io.out());
        io.out().println("result: " + json);
        return 0;
    }
}
