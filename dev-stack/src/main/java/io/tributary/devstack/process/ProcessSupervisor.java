package io.tributary.devstack.process;

import io.tributary.common.retry.Backoff;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Restarts processes that end without being asked to, with an exponential back-off, and says so on the console:
 * one crashed service of a single-node stack should not take the other five down with it (its clients reconnect
 * once it is back). The launcher calls {@link #checkOnce()} from its watch loop; restarts run on that thread, one
 * at a time, in the order the processes were registered (so a dead Kafka comes back before a dead service).
 *
 * <p>Back-off: the first restart waits {@code firstBackoff}, each further one twice as long, up to
 * {@code maxBackoff}; a process that has stayed up for {@code stableAfter} since its last restart starts again from
 * the first back-off. A restart that fails (the process does not become ready) kills what it started and counts as
 * a crash.
 */
public final class ProcessSupervisor {

    /** Starts the process again and returns once it is ready (or throws). */
    public interface Restart {
        void run() throws Exception;
    }

    private static final int LOG_LINES = 10;

    /** The wait before a restart, by the number of restarts in a row (its {@link Backoff#delay}). */
    private final Backoff backoff;

    private final Duration stableAfter;
    private final Consumer<String> console;
    private final BooleanSupplier stopping;
    private final LongSupplier nanoClock;
    private final List<Watched> watched = new CopyOnWriteArrayList<>();

    public ProcessSupervisor(
            Duration firstBackoff,
            Duration maxBackoff,
            Duration stableAfter,
            Consumer<String> console,
            BooleanSupplier stopping) {
        this(firstBackoff, maxBackoff, stableAfter, console, stopping, System::nanoTime);
    }

    ProcessSupervisor(
            Duration firstBackoff,
            Duration maxBackoff,
            Duration stableAfter,
            Consumer<String> console,
            BooleanSupplier stopping,
            LongSupplier nanoClock) {
        this.backoff = new Backoff(firstBackoff, maxBackoff);
        this.stableAfter = stableAfter;
        this.console = console;
        this.stopping = stopping;
        this.nanoClock = nanoClock;
    }

    /** Watches a started process; {@code restart} brings it back. */
    public void watch(ChildProcess process, Restart restart) {
        watched.add(new Watched(process, restart, nanoClock.getAsLong()));
    }

    /** Notices processes that died, restarts those whose back-off has passed. Returns the restarts done. */
    public int checkOnce() {
        int restarted = 0;
        for (Watched entry : watched) {
            if (stopping.getAsBoolean()) {
                return restarted;
            }
            if (entry.check()) {
                restarted++;
            }
        }
        return restarted;
    }

    /** Restarts since the process last stayed up for the stable period (0 while it is healthy). */
    public int consecutiveRestarts(ChildProcess process) {
        return watched.stream()
                .filter(entry -> entry.process == process)
                .findFirst()
                .map(entry -> entry.crashes)
                .orElse(0);
    }

    private final class Watched {
        private final ChildProcess process;
        private final Restart restart;
        private long startedAt;
        private int crashes;
        /** When the next restart may run; 0 while the process is not known to be dead. */
        private long restartAt;

        Watched(ChildProcess process, Restart restart, long startedAt) {
            this.process = process;
            this.restart = restart;
            this.startedAt = startedAt;
        }

        /** True when it restarted the process. */
        boolean check() {
            long now = nanoClock.getAsLong();
            if (restartAt == 0) {
                if (process.isAlive()) {
                    if (crashes > 0 && now - startedAt >= stableAfter.toNanos()) {
                        crashes = 0;
                    }
                    return false;
                }
                noticeCrash(
                        now,
                        "exited unexpectedly (exit code " + process.exitCode().orElse(-1) + ")");
                return false;
            }
            if (now < restartAt) {
                return false;
            }
            console.accept("quickstart: restarting " + process.name() + " ...");
            try {
                restart.run();
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                // Whatever half-started must not hold the ports the next attempt needs.
                process.kill();
                noticeCrash(nanoClock.getAsLong(), "did not come back: " + firstLine(e.getMessage()));
                return false;
            }
            startedAt = nanoClock.getAsLong();
            restartAt = 0;
            console.accept("quickstart: " + process.name() + " is back (pid "
                    + process.pid().orElse(-1) + ", restart " + crashes + ")");
            return true;
        }

        private void noticeCrash(long now, String what) {
            crashes++;
            Duration wait = backoff.delay(crashes);
            restartAt = Math.max(1, now + wait.toNanos());
            console.accept("");
            console.accept(String.format(
                    Locale.ROOT,
                    "quickstart: %s %s; restarting in %.1f s (restart %d);" + " last lines of %s:",
                    process.name(),
                    what,
                    wait.toMillis() / 1000.0,
                    crashes,
                    process.logFile()));
            console.accept(process.tail(LOG_LINES));
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no message";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
