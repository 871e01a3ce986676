package io.tributary.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/** How a command line that fails ends: one {@code tributary: ...} line on stderr and the exit code. */
final class Failures {

    private Failures() {}

    /** A usage error: the message, the command's usage, exit 2. */
    static int usage(ParameterException e, String[] args) {
        CommandLine commandLine = e.getCommandLine();
        PrintWriter err = commandLine.getErr();
        err.println("tributary: " + usageMessage(e));
        err.println();
        commandLine.usage(err);
        return ExitCodes.USAGE;
    }

    /** An unknown word where a command's subcommand goes is named so; other messages are picocli's. */
    private static String usageMessage(ParameterException e) {
        CommandLine commandLine = e.getCommandLine();
        if (e instanceof UnmatchedArgumentException unmatched
                && !commandLine.getSubcommands().isEmpty()) {
            List<String> words = unmatched.getUnmatched();
            if (!words.isEmpty() && !words.get(0).startsWith("-")) {
                return commandLine.getParent() == null
                        ? "unknown command '" + words.get(0) + "'"
                        : commandLine.getCommandName() + ": unknown subcommand '" + words.get(0) + "'";
            }
        }
        return e.getMessage();
    }

    /** A command that failed: a {@link CliException}'s code and message, anything else exit 1 with its trace. */
    static int execution(Exception e, CommandLine commandLine, ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        if (e instanceof CliException failure) {
            if (failure.getMessage() != null) {
                err.println("tributary: " + failure.getMessage());
            }
            return failure.exitCode();
        }
        err.println("tributary: " + e);
        e.printStackTrace(err);
        return ExitCodes.REFUSED;
    }
}
