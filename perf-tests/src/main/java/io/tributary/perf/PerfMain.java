package io.tributary.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.tributary.perf.compare.CompareRun;
import io.tributary.perf.load.LoadRun;
import io.tributary.perf.load.RunOptions;
import io.tributary.perf.report.HtmlReport;
import io.tributary.perf.report.ResultFiles;
import io.tributary.perf.report.ResultMerger;
import io.tributary.perf.report.RunResult;
import io.tributary.perf.report.TextSummary;
import io.tributary.perf.scenario.Scenario;
import io.tributary.perf.scenario.ScenarioException;
import io.tributary.perf.scenario.ScenarioLoader;

/**
 * The {@code perf} command: run a scenario, merge split runs, compare two brokers, validate scenario files, render
 * a report. This is a command-line tool, so the console is its user interface.
 */
public final class PerfMain {

    private final PrintStream out;

    PerfMain(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        int code = new PerfMain(System.out).execute(args);
        System.out.flush();
        // Event loop threads are stopped by then; exit anyway so nothing can keep a benchmark alive.
        System.exit(code);
    }

    int execute(String[] args) {
        if (args.length == 0 || List.of("-h", "--help", "help").contains(args[0])) {
            out.print(Help.TEXT);
            return args.length == 0 ? 2 : 0;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        if (rest.contains("--help") || rest.contains("-h")) {
            out.print(Help.TEXT);
            return 0;
        }
        try {
            CommandLine cl = CommandLine.parse(rest);
            return switch (args[0]) {
                case "run" -> run(cl);
                case "compare" -> compare(cl);
                case "merge" -> merge(cl);
                case "validate" -> validate(cl);
                case "report" -> report(cl);
                default -> throw new IllegalArgumentException("unknown command '" + args[0] + "' (see --help)");
            };
        } catch (ScenarioException e) {
            out.println(e.getMessage());
            return 2;
        } catch (IllegalArgumentException e) {
            out.println("error: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            out.println("error: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("interrupted");
            return 130;
        }
    }

    private int run(CommandLine cl) throws IOException, InterruptedException {
        Path file = onlyScenario(cl);
        RunOptions options = cl.runOptions(file);
        Scenario scenario = prepare(ScenarioLoader.load(file), options);
        RunResult result = new LoadRun(scenario, options, out).run();
        Path json = write(result, options, cl);
        TextSummary.print(result, out);
        out.println("result: " + json);
        return result.connections().established() == 0 && result.connections().planned() > 0 ? 1 : 0;
    }

    private int compare(CommandLine cl) throws IOException, InterruptedException {
        Path file = onlyScenario(cl);
        List<CommandLine.CompareSide> sides = cl.compareSides();
        if (cl.role != io.tributary.perf.load.Role.ALL) {
            throw new IllegalArgumentException("compare runs both roles itself; drop --role");
        }
        RunOptions base = cl.compareBase(file);
        List<RunResult> results = new ArrayList<>();
        for (CommandLine.CompareSide side : sides) {
            RunOptions options = base.withTargets(side.targets(), side.label(), side.pids(), side.patterns())
                    .withRunId(CommandLine.newRunId());
            Scenario scenario = prepare(ScenarioLoader.load(file), options);
            out.println("== compare: " + side.label() + " " + side.targets());
            RunResult result = new LoadRun(scenario, options, out).run();
            write(result, options, null);
            TextSummary.print(result, out);
            results.add(result);
            if (results.size() == 1) {
                Thread.sleep(cl.pause.toMillis());
            }
        }
        List<CompareRun.Row> rows = CompareRun.rows(results.get(0), results.get(1));
        out.println();
        out.println("== " + results.get(0).scenario() + ": " + sides.get(0).label() + " vs " + sides.get(1).label());
        CompareRun.print(sides.get(0).label(), sides.get(1).label(), rows, out);
        Path summary = cl.outDir.resolve(String.format(Locale.ROOT, "compare-%s-%s-vs-%s.json",
                results.get(0).scenario(), sides.get(0).label(), sides.get(1).label()));
        Files.createDirectories(cl.outDir);
        Files.writeString(summary, ResultFiles.toJson(new CompareSummary(results.get(0).scenario(),
                sides.get(0).label(), sides.get(1).label(), rows)));
        out.println("comparison: " + summary);
        return 0;
    }

    /** What compare writes besides the two run results. */
    record CompareSummary(String scenario, String a, String b, List<CompareRun.Row> rows) {
    }

    private int merge(CommandLine cl) throws IOException {
        if (cl.positional.size() < 2) {
            throw new IllegalArgumentException("merge needs two or more result files");
        }
        List<RunResult> parts = new ArrayList<>();
        for (String p : cl.positional) {
            parts.add(ResultFiles.read(Path.of(p)));
        }
        RunResult merged = ResultMerger.merge(parts);
        Path json = cl.outFile != null ? cl.outFile
                : Path.of(cl.positional.get(0)).resolveSibling(merged.scenario() + "-merged-" + merged.runId()
                + ".json");
        ResultFiles.write(merged, json);
        if (cl.html) {
            Files.writeString(html(json), HtmlReport.render(merged));
        }
        TextSummary.print(merged, out);
        out.println("result: " + json);
        return 0;
    }

    private int validate(CommandLine cl) {
        if (cl.positional.isEmpty()) {
            throw new IllegalArgumentException("validate needs one or more scenario files");
        }
        for (String p : cl.positional) {
            Scenario s = ScenarioLoader.load(Path.of(p)).scaled(cl.scale);
            out.printf(Locale.ROOT, "%s: ok — %d connections: %d publishers (%.0f msg/s offered), %d subscribing"
                            + " clients; warm-up %ds, duration %ds%n", p, s.connectionCount(), s.publisherCount(),
                    s.offeredRate(), s.subscriberCount(), s.warmUp().toSeconds(), s.duration().toSeconds());
        }
        return 0;
    }

    private int report(CommandLine cl) throws IOException {
        if (cl.positional.size() != 1) {
            throw new IllegalArgumentException("report needs one result file");
        }
        Path json = Path.of(cl.positional.get(0));
        RunResult result = ResultFiles.read(json);
        Files.writeString(html(json), HtmlReport.render(result));
        TextSummary.print(result, out);
        out.println("report: " + html(json));
        return 0;
    }

    private static Scenario prepare(Scenario loaded, RunOptions options) {
        Scenario s = loaded.scaled(options.scale()).withRateFactor(options.rateFactor())
                .withTiming(options.warmUp(), options.duration())
                .withMachine(options.sourceAddresses(), options.ioThreads());
        s = options.ramp() > 0 ? s.withRamp(options.ramp()) : s;
        return options.targets().isEmpty() ? s : s.withTargets(options.targets());
    }

    private Path write(RunResult result, RunOptions options, CommandLine cl) throws IOException {
        String name = String.format(Locale.ROOT, "%s-%s-%s", result.scenario(),
                options.label() != null ? options.label() : options.role().label(), options.runId());
        Path json = cl != null && cl.outFile != null ? cl.outFile : options.outDir().resolve(name + ".json");
        ResultFiles.write(result, json);
        if (options.html()) {
            Files.writeString(html(json), HtmlReport.render(result));
            out.println("report: " + html(json));
        }
        return json;
    }

    private static Path html(Path json) {
        return json.resolveSibling(json.getFileName().toString().replaceFirst("\\.json$", "") + ".html");
    }

    private static Path onlyScenario(CommandLine cl) {
        if (cl.positional.size() != 1) {
            throw new IllegalArgumentException("give exactly one scenario file (see --help)");
        }
        return Path.of(cl.positional.get(0));
    }
}
