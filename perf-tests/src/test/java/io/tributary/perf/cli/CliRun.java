package io.tributary.perf.cli;

import io.tributary.perf.load.RunOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.ParseResult;

/** One {@code perf} command line run in this JVM, with what it printed on each stream. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Io io = new Io(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                false,
                100);
        int code = PerfCli.execute(io, args);
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Parses only (nothing runs) and returns the subcommand's object. */
    static Object parsed(String... args) {
        Io io = new Io(System.out, System.err, false, 100);
        ParseResult result = PerfCli.commandLine(io).parseArgs(args);
        return result.subcommand().commandSpec().userObject();
    }

    static RunOptions runOptions(String... args) {
        return ((RunCommand) parsed(args)).runOptions();
    }
}
