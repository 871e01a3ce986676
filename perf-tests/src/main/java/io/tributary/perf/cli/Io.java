package io.tributary.perf.cli;

import java.io.Console;
import java.io.PrintStream;
import java.lang.reflect.Method;

/**
 * Where the command writes: results and progress to {@code out}, errors to {@code err}; whether {@code out} is a
 * terminal (progress redrawn in place) and how wide.
 */
public record Io(PrintStream out, PrintStream err, boolean terminal, int width) {

    private static final int DEFAULT_WIDTH = 80;

    /** The process's own streams; {@code COLUMNS} (exported by bin/perf on a terminal) gives the width. */
    public static Io system() {
        return new Io(System.out, System.err, stdoutIsTerminal(), width(System.getenv("COLUMNS")));
    }

    static int width(String columns) {
        try {
            int w = columns == null ? DEFAULT_WIDTH : Integer.parseInt(columns.trim());
            return w > 0 ? w : DEFAULT_WIDTH;
        } catch (NumberFormatException e) {
            return DEFAULT_WIDTH;
        }
    }

    /**
     * Up to JDK 21 {@link System#console()} exists only when standard input and output are both a terminal; from 22
     * on it always may, and {@code Console.isTerminal()} tells.
     */
    private static boolean stdoutIsTerminal() {
        Console console = System.console();
        if (console == null || "dumb".equals(System.getenv("TERM"))) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
