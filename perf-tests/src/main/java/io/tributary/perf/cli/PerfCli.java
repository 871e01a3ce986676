package io.tributary.perf.cli;

import io.tributary.perf.scenario.ScenarioException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code perf} command line: subcommands run, compare, merge, validate and report, each with typed options and
 * its own --help. Exit codes: 0 done, 1 the run could not connect or a file could not be read or written, 2 a bad
 * command line or scenario (with a message naming what is wrong), 130 interrupted.
 */
public final class PerfCli {

    static final int USAGE = 2;
    static final int FAILED = 1;
    static final int INTERRUPTED = 130;
    private static final int USAGE_WIDTH = 110;

    private PerfCli() {}

    public static int execute(Io io, String... args) {
        return commandLine(io).execute(args);
    }

    static CommandLine commandLine(Io io) {
        CommandLine cl = new CommandLine(new Perf(io))
                .addSubcommand(new RunCommand(io))
                .addSubcommand(new CompareCommand(io))
                .addSubcommand(new MergeCommand(io))
                .addSubcommand(new ValidateCommand(io))
                .addSubcommand(new ReportCommand(io))
                .addSubcommand(new CommandLine.HelpCommand());
        cl.setUsageHelpWidth(USAGE_WIDTH);
        cl.setOut(new PrintWriter(io.out(), true, Charset.defaultCharset()));
        cl.setErr(new PrintWriter(io.err(), true, Charset.defaultCharset()));
        cl.setParameterExceptionHandler((e, args) -> badCommandLine(e, io));
        cl.setExecutionExceptionHandler((e, command, parsed) -> failed(e, io));
        return cl;
    }

    private static int badCommandLine(ParameterException e, Io io) {
        CommandLine command = e.getCommandLine();
        String message = e.getMessage();
        if (e instanceof UnmatchedArgumentException u
                && command.getParent() == null
                && !u.getUnmatched().isEmpty()
                && !u.getUnmatched().get(0).startsWith("-")) {
            message = "unknown command '" + u.getUnmatched().get(0) + "'";
        }
        io.err().println("error: " + message);
        UnmatchedArgumentException.printSuggestions(e, io.err());
        io.err().println("see '" + command.getCommandSpec().qualifiedName() + " --help'");
        return USAGE;
    }

    private static int failed(Exception e, Io io) throws Exception {
        if (e instanceof ScenarioException) {
            io.err().println(e.getMessage());
            return USAGE;
        }
        if (e instanceof IllegalArgumentException) {
            io.err().println("error: " + e.getMessage());
            return USAGE;
        }
        if (e instanceof IOException) {
            io.err().println("error: " + e.getMessage());
            return FAILED;
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            io.err().println("interrupted");
            return INTERRUPTED;
        }
        throw e;
    }

    /** {@code perf} itself: without a command it prints its help and fails, as a usage error. */
    @Command(
            name = "perf",
            synopsisSubcommandLabel = "COMMAND",
            header = "perf - MQTT load generator and benchmark runner (Tributary perf-tests)",
            description = {"", "perf COMMAND --help (or perf help COMMAND) shows a command's options."},
            commandListHeading = "%nCommands:%n",
            footer = {
                "",
                "Endpoints (EP): host:port (plain TCP) or tls://host:port; loopback addresses only (127.0.0.0/8,"
                        + " ::1) unless --allow-remote is given. Several endpoints: repeat --target (run) or"
                        + " separate them with commas (compare); clients are spread over them round robin.",
                "",
                "Every run is bounded: ramp + warm-up + duration + drain + fixed grace periods, then it stops by"
                        + " itself. The open-file limit (ulimit -n) caps connections per process; a warning"
                        + " says so when a scenario exceeds it.",
                "",
                "Output: progress with time left (one line redrawn in place on a terminal, one plain line per"
                        + " second otherwise, none with --quiet), a JSON result, a self-contained HTML report"
                        + " and HdrHistogram interval logs of the latencies.",
                "Scenario format: perf-tests/scenarios/README.md"
            })
    static final class Perf implements Callable<Integer> {

        private final Io io;

        @Spec
        CommandSpec spec;

        @Mixin
        HelpOption help;

        Perf(Io io) {
            this.io = io;
        }

        @Override
        public Integer call() {
            spec.commandLine().usage(io.out());
            return USAGE;
        }
    }
}
