package io.tributary.perf.progress;

import java.io.PrintStream;

/**
 * Progress as one line redrawn in place (carriage return, erase to end of line), cut to the terminal's width so it
 * never wraps (a wrapped line cannot be redrawn). Messages clear it, print, and draw it again below them.
 */
final class TerminalConsole implements RunConsole {

    private static final String ERASE_TO_END = "\u001b[K";

    private final PrintStream out;
    private final ProgressContext context;
    private final int width;
    private String shown;

    TerminalConsole(PrintStream out, ProgressContext context, int width) {
        this.out = out;
        this.context = context;
        this.width = Math.max(20, width);
    }

    @Override
    public synchronized void line(String text) {
        if (shown != null) {
            out.print("\r" + ERASE_TO_END);
        }
        out.println(text);
        if (shown != null) {
            out.print(shown);
        }
        out.flush();
    }

    @Override
    public synchronized void progress(Progress progress) {
        String text = context.prefix() + ProgressLine.bar(progress, context.laterSeconds());
        // One column spare: writing the last column moves some terminals to the next line.
        shown = text.length() >= width ? text.substring(0, width - 1) : text;
        out.print("\r" + shown + ERASE_TO_END);
        out.flush();
    }

    @Override
    public synchronized void done() {
        if (shown != null) {
            out.println();
            shown = null;
        }
        out.flush();
    }
}
