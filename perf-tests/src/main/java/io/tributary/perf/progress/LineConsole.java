package io.tributary.perf.progress;

import java.io.PrintStream;

/** Progress as one plain line per tick: for output that is not a terminal (CI logs, files, pipes). */
final class LineConsole implements RunConsole {

    private final PrintStream out;
    private final ProgressContext context;

    LineConsole(PrintStream out, ProgressContext context) {
        this.out = out;
        this.context = context;
    }

    @Override
    public void line(String text) {
        out.println(text);
    }

    @Override
    public void progress(Progress progress) {
        out.println(context.prefix() + ProgressLine.plain(progress, context.laterSeconds()));
    }

    @Override
    public void done() {
        out.flush();
    }
}
