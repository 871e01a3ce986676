package io.tributary.devstack.process;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child OS process whose stdout and stderr go to a log file (appended, so restarts keep the history), optionally
 * echoed to the console with a {@code [name]} prefix. Stop is SIGTERM, a grace period, then SIGKILL; kill is SIGKILL
 * at once, for crash tests.
 *
 * <p>Output goes straight to the file rather than through a pipe read by this JVM: a child must keep running and
 * logging when its parent is gone or slow.
 */
public final class ManagedProcess implements ChildProcess {

    static final Duration DEFAULT_STOP_GRACE = Duration.ofSeconds(20);
    private static final Optional<String> SETSID = Executables.find("setsid");

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path logFile;
    private final boolean echo;
    private final boolean detached;
    private final boolean stopOnJvmExit;

    private volatile Process process;
    private long logOffset;
    private LogFollower follower;
    private Thread exitHook;

    private ManagedProcess(Builder builder) {
        this.name = builder.name;
        this.command = List.copyOf(builder.command);
        this.environment = Map.copyOf(builder.environment());
        this.logFile = builder.logFile().toAbsolutePath();
        this.echo = builder.echo();
        this.detached = builder.detached();
        this.stopOnJvmExit = builder.stopOnJvmExit();
    }

    public static Builder builder(String name, List<String> command) {
        return new Builder(name, command);
    }

    /** Starts the process; it may be started again after it stopped or was killed. */
    public synchronized void start() throws IOException {
        if (isAlive()) {
            throw new IllegalStateException(name + " is already running as pid " + process.pid());
        }
        Files.createDirectories(logFile.getParent());
        logOffset = Files.exists(logFile) ? Files.size(logFile) : 0;
        List<String> fullCommand = new ArrayList<>();
        // setsid puts the child in its own session: a Ctrl-C in the terminal then reaches only the launcher, which
        // stops its children in order instead of all of them receiving SIGINT at once.
        if (detached && SETSID.isPresent()) {
            fullCommand.add(SETSID.get());
        }
        fullCommand.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(fullCommand)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().putAll(environment);
        process = builder.start();
        if (echo) {
            follower = new LogFollower(name, logFile, logOffset);
            follower.start();
        }
        if (stopOnJvmExit && exitHook == null) {
            exitHook = new Thread(() -> stop(Duration.ofSeconds(5)), "stop-" + name + "-on-exit");
            Runtime.getRuntime().addShutdownHook(exitHook);
        }
    }

    /**
     * Waits for a line written by this run of the process that matches, and returns it. Fails when the process
     * exits first or the timeout passes; the message carries the tail of the log.
     */
    public String awaitLine(Predicate<String> matcher, Duration timeout) throws InterruptedException {
        Process current = process;
        long deadline = System.nanoTime() + timeout.toNanos();
        long position = logOffset;
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            boolean alive = current.isAlive();
            byte[] appended = readFrom(position);
            position += appended.length;
            for (byte b : appended) {
                // '\n' never occurs inside a multi-byte UTF-8 sequence: splitting bytes on it is safe.
                if (b == '\n') {
                    String text = line.toString(StandardCharsets.UTF_8);
                    line.reset();
                    if (matcher.test(text)) {
                        return text;
                    }
                } else {
                    line.write(b);
                }
            }
            if (appended.length > 0) {
                continue;
            }
            if (!alive) {
                throw new IllegalStateException(
                        name + " exited with code " + current.exitValue() + " before it was ready" + tailForMessage());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        name + " was not ready within " + timeout.toSeconds() + " s" + tailForMessage());
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private byte[] readFrom(long position) {
        try (RandomAccessFile file = new RandomAccessFile(logFile.toFile(), "r")) {
            long available = file.length() - position;
            if (available <= 0) {
                return new byte[0];
            }
            byte[] bytes = new byte[(int) Math.min(available, 1 << 20)];
            file.seek(position);
            file.readFully(bytes);
            return bytes;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + logFile, e);
        }
    }

    /** SIGTERM, then SIGKILL after 20 seconds. */
    @Override
    public void stop() {
        stop(DEFAULT_STOP_GRACE);
    }

    /** SIGTERM, wait up to the grace period, then SIGKILL for the process and anything it started. */
    public synchronized void stop(Duration grace) {
        if (process == null) {
            return;
        }
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    forceKill();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                forceKill();
            }
        }
        stopFollower();
    }

    /** SIGKILL without grace, as in a crash: the process gets no chance to clean up. */
    @Override
    public synchronized void kill() {
        if (process == null) {
            return;
        }
        forceKill();
        stopFollower();
    }

    private void forceKill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void stopFollower() {
        if (follower != null) {
            follower.finish();
            follower = null;
        }
    }

    @Override
    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The pid of the running (or last) process; empty before the first start. */
    @Override
    public synchronized OptionalLong pid() {
        return process == null ? OptionalLong.empty() : OptionalLong.of(process.pid());
    }

    /** The exit code once the process has ended. */
    @Override
    public synchronized OptionalLong exitCode() {
        return process == null || process.isAlive() ? OptionalLong.empty() : OptionalLong.of(process.exitValue());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Path logFile() {
        return logFile;
    }

    /** The last lines of the log file, for failure messages. */
    @Override
    public String tail(int lines) {
        return LogFiles.tail(logFile, lines);
    }

    /** "; last lines of &lt;log&gt;:" and the tail, to end a failure message with. */
    String tailForMessage() {
        return "; last lines of " + logFile + ":\n" + tail(40);
    }

    /** Settings of a {@link ManagedProcess}. */
    public static final class Builder extends ProcessSettings<Builder> {
        private final String name;
        private final List<String> command;

        private Builder(String name, List<String> command) {
            this.name = Objects.requireNonNull(name, "name");
            this.command = List.copyOf(command);
        }

        public ManagedProcess build() {
            if (logFile() == null) {
                throw new IllegalStateException("a log file is required for " + name);
            }
            return new ManagedProcess(this);
        }
    }
}
