package io.tributary.devstack.quickstart;

import io.tributary.common.concurrent.DaemonThreads;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The quickstart's own output: it is a command-line program talking to a person, so it prints to stdout (the
 * processes it starts log to files).
 */
final class Console {

    private static final long TICK_SECONDS = 10;

    private final PrintStream out = System.out;
    private final ScheduledExecutorService ticker = DaemonThreads.scheduler("quickstart-progress");

    /** A startup step that may take a while. */
    interface Step {
        void run() throws Exception;
    }

    void line(String text) {
        out.println(text);
        out.flush();
    }

    /** Prints "[i/n] what ...", reminds every 10 s that it is still going, then prints how long it took. */
    void step(int index, int total, String what, Step step) throws Exception {
        line(String.format(Locale.ROOT, "[%d/%d] %s ...", index, total, what));
        long start = System.nanoTime();
        ScheduledFuture<?> reminder = ticker.scheduleAtFixedRate(
                () -> line("      still starting (" + seconds(start) + " s)"),
                TICK_SECONDS,
                TICK_SECONDS,
                TimeUnit.SECONDS);
        try {
            step.run();
        } finally {
            reminder.cancel(false);
        }
        line(String.format(Locale.ROOT, "      ready in %.1f s", (System.nanoTime() - start) / 1e9));
    }

    private static long seconds(long start) {
        return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    }
}
