package io.tributary.common.concurrent;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads of the services' periodic background work (ticks, probes, pollers, reconnects): named, so a thread dump or
 * a per-thread CPU figure says whose they are, and daemon, so none of them keeps a JVM alive that is shutting down.
 * Each owner still shuts its executor down itself when it stops.
 */
public final class DaemonThreads {

    private DaemonThreads() {}

    /** Makes daemon threads that all carry {@code name}. */
    public static ThreadFactory named(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Makes daemon threads called {@code prefix} and a number from 1 ({@code replay-1}, {@code replay-2}, ...). */
    public static ThreadFactory numbered(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** A scheduled executor on one daemon thread called {@code name}. */
    public static ScheduledExecutorService scheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(named(name));
    }
}
