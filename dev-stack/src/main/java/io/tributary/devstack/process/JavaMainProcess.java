package io.tributary.devstack.process;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A main class of this module run in a child JVM with this JVM's class path, following the {@link ChildMain}
 * protocol: started, then awaited until it prints its ready line.
 */
public final class JavaMainProcess extends ForwardingChildProcess<ManagedProcess> {

    private final Duration readyTimeout;
    private volatile String readyAddress;

    private JavaMainProcess(Builder builder) {
        super(builder.applyTo(ManagedProcess.builder(
                        builder.name, JavaCommand.forMainClass(builder.mainClass, builder.jvmOptions(), builder.args)))
                .environment(Map.of(ChildMain.WATCH_PARENT_ENV, "true"))
                .build());
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

    /** Settings of a {@link JavaMainProcess}; default heap 256m. */
    public static final class Builder extends JvmProcessSettings<Builder> {
        private final String name;
        private final String mainClass;
        private final List<String> args = new ArrayList<>();
        private Duration readyTimeout = Duration.ofSeconds(90);

        private Builder(String name, String mainClass) {
            super("256m");
            this.name = name;
            this.mainClass = mainClass;
            // Quieter and lighter child JVMs: they serve, they do not need the JIT's top tier to start fast.
            garbageCollector("-XX:+UseSerialGC");
            jvmOption("-Dorg.slf4j.simpleLogger.showDateTime=true");
            jvmOption("-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");
        }

        public Builder arg(String name, Object value) {
            args.add("--" + name);
            args.add(String.valueOf(value));
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
