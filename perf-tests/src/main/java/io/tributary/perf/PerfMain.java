package io.tributary.perf;

import io.tributary.perf.cli.Io;
import io.tributary.perf.cli.PerfCli;

/**
 * The {@code perf} command: run a scenario, merge split runs, compare two brokers, validate scenario files, render
 * a report (see {@link PerfCli}). This is a command-line tool, so the console is its user interface.
 */
public final class PerfMain {

    private PerfMain() {}

    public static void main(String[] args) {
        int code = PerfCli.execute(Io.system(), args);
        System.out.flush();
        // Event loop threads are stopped by then; exit anyway so nothing can keep a benchmark alive.
        System.exit(code);
    }
}
