package io.tributary.devstack.process;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The small protocol between a launcher and the main classes it starts as child JVMs: options as
 * {@code --name value} with environment fallbacks, one marker line on stdout once the server answers, an optional
 * watch on the parent so a child does not outlive its launcher, and a run-until-SIGTERM loop.
 */
public final class ChildMain {

    /** Marker that starts the one line a child prints once it is ready; the rest of the line is its address. */
    public static final String READY_MARKER = "TRIBUTARY-DEVSTACK-READY ";
    /** Set to "true" by launchers: the child exits when the process that started it is gone. */
    public static final String WATCH_PARENT_ENV = "TRIBUTARY_DEVSTACK_WATCH_PARENT";

    private ChildMain() {}

    /** Parses {@code --name value} and {@code --name=value} pairs. */
    public static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument: " + arg);
            }
            int equals = arg.indexOf('=');
            if (equals > 0) {
                options.put(arg.substring(2, equals), arg.substring(equals + 1));
            } else if (i + 1 < args.length) {
                options.put(arg.substring(2), args[++i]);
            } else {
                throw new IllegalArgumentException("missing value for " + arg);
            }
        }
        return options;
    }

    /** The option, else the environment variable, else empty. */
    public static Optional<String> option(Map<String, String> options, String name, String envVariable) {
        String value = options.get(name);
        if (value == null || value.isBlank()) {
            value = System.getenv(envVariable);
        }
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /** The option (else the variable) as a path; fails naming both when neither is given. */
    public static Path requiredPath(Map<String, String> options, String name, String envVariable) {
        return Path.of(option(options, name, envVariable)
                .orElseThrow(() -> new IllegalArgumentException("--" + name + " or " + envVariable + " is required")));
    }

    /** The option (else the variable) as a port number; 0, for a free port, when neither is given. */
    public static int port(Map<String, String> options, String name, String envVariable) {
        return Integer.parseInt(option(options, name, envVariable).orElse("0"));
    }

    /**
     * The whole main of a child: starts the server, then {@link #runUntilTerminated runs until terminated},
     * announcing the address; a server that fails to start is reported on stderr and ends the JVM with status 1.
     */
    @SuppressWarnings("java:S106") // stderr is where the launcher's log file collects a child's startup failure
    public static <S extends AutoCloseable> void serve(
            String name, Supplier<S> start, Function<S, String> readyAddress) {
        S server;
        try {
            server = start.get();
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
            return;
        }
        runUntilTerminated(name, server, readyAddress.apply(server));
    }

    /**
     * Runs the server until the JVM is asked to stop (SIGTERM, SIGINT) or the parent disappears: prints the ready
     * line, then blocks. The server is closed by a shutdown hook.
     */
    @SuppressWarnings("java:S106") // stdout is the protocol channel to the launcher here, not logging
    public static void runUntilTerminated(String name, AutoCloseable server, String readyAddress) {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                server.close();
                            } catch (Exception e) {
                                System.err.println(name + ": error while stopping: " + e);
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "stop-" + name));
        if ("true".equalsIgnoreCase(System.getenv(WATCH_PARENT_ENV))) {
            watchParent(name);
        }
        PrintStream out = System.out;
        out.println(READY_MARKER + readyAddress);
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The option (else the variable) as true/false; the default when neither is given; anything else fails. */
    public static boolean bool(Map<String, String> options, String name, String envVariable, boolean defaultValue) {
        Optional<String> value = option(options, name, envVariable);
        if (value.isEmpty()) {
            return defaultValue;
        }
        return switch (value.get().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default ->
                throw new IllegalArgumentException(
                        "--" + name + " / " + envVariable + " must be true or false, not '" + value.get() + "'");
        };
    }

    /** Waits for the ready line of a child started with {@link #runUntilTerminated} and returns its address. */
    public static String awaitReady(ManagedProcess process, Duration timeout) throws InterruptedException {
        String line = process.awaitLine(candidate -> candidate.contains(READY_MARKER), timeout);
        return line.substring(line.indexOf(READY_MARKER) + READY_MARKER.length())
                .trim();
    }

    private static void watchParent(String name) {
        Optional<ProcessHandle> parent = ProcessHandle.current().parent();
        if (parent.isEmpty()) {
            return;
        }
        Thread watcher = new Thread(
                () -> {
                    while (parent.get().isAlive()) {
                        try {
                            TimeUnit.SECONDS.sleep(1);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    System.err.println(
                            name + ": launcher process " + parent.get().pid() + " is gone, stopping");
                    System.exit(0);
                },
                "watch-parent");
        watcher.setDaemon(true);
        watcher.start();
    }
}
