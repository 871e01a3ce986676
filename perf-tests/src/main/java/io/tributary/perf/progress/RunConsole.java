package io.tributary.perf.progress;

import java.io.PrintStream;
import java.util.Locale;

/**
 * What a run prints while it runs: messages (warnings, what it samples) and its progress. On a terminal the progress
 * is one line redrawn in place ({@link TerminalConsole}); elsewhere (CI logs, files) one plain line per tick
 * ({@link LineConsole}); with {@code --quiet} none ({@link #quiet}).
 */
public interface RunConsole {

    /** A whole line, kept in the output (on a terminal above the progress line). */
    void line(String text);

    /** The latest progress. */
    void progress(Progress progress);

    /** The run is over: whatever follows starts on a fresh line. */
    void done();

    default void printf(String format, Object... args) {
        line(String.format(Locale.ROOT, format, args).stripTrailing());
    }

    /** Plain lines, the progress included, on {@code out}. */
    static RunConsole lines(PrintStream out) {
        return new LineConsole(out, ProgressContext.SINGLE);
    }

    /**
     * The console for a command's output: a redrawn progress line on a terminal, plain lines elsewhere, messages
     * only when quiet.
     *
     * @param width terminal columns, for the redrawn line
     */
    static RunConsole of(PrintStream out, boolean terminal, int width, boolean quiet, ProgressContext context) {
        if (quiet) {
            return quiet(out);
        }
        return terminal ? new TerminalConsole(out, context, width) : new LineConsole(out, context);
    }

    /** Messages only, no progress. */
    static RunConsole quiet(PrintStream out) {
        return new RunConsole() {
            @Override
            public void line(String text) {
                out.println(text);
            }

            @Override
            public void progress(Progress progress) {
                // quiet: no progress
            }

            @Override
            public void done() {
                out.flush();
            }
        };
    }
}
