package io.tributary.devstack.process;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A main class of this module run in a child JVM with this JVM's class path, following the {@link ChildMain}
 * protocol: started, then awaited until it prints its ready line.
 */
public final class JavaMainProcess implements ChildProcess {

    private final ManagedProcess process;
    private final Duration readyTimeout;
    private volatile String readyAddress;

    private JavaMainProcess(Builder builder) {
        List<String> jvmOptions = new ArrayList<>();
        jvmOptions.add("-Xmx" + builder.heap);
        // Quieter and lighter child JVMs: they serve, they do not need the JIT's top tier to start fast.
        jvmOptions.add("-XX:+UseSerialGC");
        jvmOptions.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
        jvmOptions.add("-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");
        jvmOptions.addAll(builder.jvmOptions);
        Map<String, String> environment = new LinkedHashMap<>(builder.environment);
        environment.put(ChildMain.WATCH_PARENT_ENV, "true");
        this.process = ManagedProcess.builder(builder.name,
                        JavaCommand.forMainClass(builder.mainClass, jvmOptions, builder.args))
                .environment(environment)
                .logFile(builder.logFile)
                .echo(builder.echo)
                .detached(builder.detached)
                .stopOnJvmExit(builder.stopOnJvmExit)
                .build();
        this.readyTimeout = builder.readyTimeout;
    }

    public static Builder builder(String name, String mainClass) {
        return new Builder(name, mainClass);
    }

    /** Starts the child and returns the address it announced once ready; on failure the child is killed. */
    public String start() throws IOException, InterruptedException {
        process.start();
        try {
            readyAddress = ChildMain.awaitReady(process, readyTimeout);
            return readyAddress;
        } catch (RuntimeException | InterruptedException e) {
            process.kill();
            throw e;
        }
    }

    /** The address announced by the last start. */
    public String readyAddress() {
        return readyAddress;
    }

    /** SIGTERM (the child stops its server in a shutdown hook), then SIGKILL after a grace period. */
    @Override
    public void stop() {
        process.stop();
    }

    /** SIGKILL: a crash, the child's data stays as the kernel left it. */
    @Override
    public void kill() {
        process.kill();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public OptionalLong pid() {
        return process.pid();
    }

    @Override
    public OptionalLong exitCode() {
        return process.exitCode();
    }

    @Override
    public String name() {
        return process.name();
    }

    @Override
    public Path logFile() {
        return process.logFile();
    }

    @Override
    public String tail(int lines) {
        return process.tail(lines);
    }

    /** Settings of a {@link JavaMainProcess}. */
    public static final class Builder {
        private final String name;
        private final String mainClass;
        private final List<String> args = new ArrayList<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private String heap = "256m";
        private Path logFile;
        private boolean echo;
        private boolean detached;
        private boolean stopOnJvmExit = true;
        private Duration readyTimeout = Duration.ofSeconds(90);

        private Builder(String name, String mainClass) {
            this.name = name;
            this.mainClass = mainClass;
        }

        public Builder arg(String name, Object value) {
            args.add("--" + name);
            args.add(String.valueOf(value));
            return this;
        }

        public Builder jvmOption(String option) {
            jvmOptions.add(option);
            return this;
        }

        public Builder environment(Map<String, String> variables) {
            environment.putAll(variables);
            return this;
        }

        /** Maximum heap, as for -Xmx (e.g. "512m"). */
        public Builder heap(String heap) {
            this.heap = heap;
            return this;
        }

        public Builder logFile(Path logFile) {
            this.logFile = logFile;
            return this;
        }

        public Builder echo(boolean echo) {
            this.echo = echo;
            return this;
        }

        public Builder detached(boolean detached) {
            this.detached = detached;
            return this;
        }

        public Builder stopOnJvmExit(boolean stopOnJvmExit) {
            this.stopOnJvmExit = stopOnJvmExit;
            return this;
        }

        public Builder readyTimeout(Duration readyTimeout) {
            this.readyTimeout = readyTimeout;
            return this;
        }

        public JavaMainProcess build() {
            return new JavaMainProcess(this);
        }
    }
}
