package io.tributary.cli;

import java.io.PrintWriter;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** A leaf command: reaches the root's settings and the API, prints answers; exit 0 unless it throws. */
abstract class ApiCommand implements Callable<Integer> {

    @Spec
    @Nullable
    CommandSpec spec;

    @Override
    public final Integer call() {
        execute();
        return ExitCodes.OK;
    }

    abstract void execute();

    final CommandSpec spec() {
        return Objects.requireNonNull(spec);
    }

    final TributaryCli root() {
        return (TributaryCli) spec().root().userObject();
    }

    final AdminApi api() {
        return root().api();
    }

    final PrintWriter out() {
        return spec().commandLine().getOut();
    }

    final PrintWriter err() {
        return spec().commandLine().getErr();
    }

    /** Prints an answer's body: the JSON as it came with {@code --json}, else tab-separated. */
    final void print(AdminApi.Answer<?> answer) {
        Output.print(out(), answer.body(), root().json());
    }

    /** A usage error (exit 2) with this command's usage. */
    final ParameterException usage(String message) {
        return new ParameterException(spec().commandLine(), message);
    }

    /** An id as the API takes it: a number, else a usage error (exit 2). */
    static long id(String value) {
        if (!value.matches("[0-9]{1,18}")) {
            throw new CliException(ExitCodes.USAGE, "'" + value + "' is not an id (a number; see the list command)");
        }
        return Long.parseLong(value);
    }

    /** A parent command: run alone it is a usage error naming its subcommands. */
    abstract static class Group implements Callable<Integer> {

        @Spec
        @Nullable
        CommandSpec spec;

        @Override
        public final Integer call() {
            CommandSpec self = Objects.requireNonNull(spec);
            throw new ParameterException(self.commandLine(), "missing " + subcommands());
        }

        /** The subcommands, as the message says them ("list, show or remove"). */
        abstract String subcommands();
    }
}
