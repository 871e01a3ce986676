package io.tributary.devstack.kafka;

import io.tributary.devstack.net.Ports;
import io.tributary.devstack.process.ChildProcess;
import io.tributary.devstack.process.JavaMainProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * {@link EmbeddedKafka} in a child JVM ({@link KafkaBrokerMain}, this JVM's class path, small heap), so a test can
 * kill it with SIGKILL and start it again on the same data directory and ports.
 *
 * <pre>{@code
 * KafkaBrokerProcess kafka = KafkaBrokerProcess.builder(dataDir).logFile(log).build();
 * kafka.start();                 // returns once the broker answers
 * kafka.kill();                  // crash
 * kafka.start();                 // same data, same ports
 * }</pre>
 */
public final class KafkaBrokerProcess implements ChildProcess {

    private final Path dataDir;
    private final int port;
    private final int controllerPort;
    private final JavaMainProcess process;

    private KafkaBrokerProcess(Builder builder) {
        this.dataDir = builder.dataDir.toAbsolutePath();
        // Ports are fixed once, here: a restart must come back at the same address.
        int[] free = Ports.freePorts(2);
        this.port = builder.port == 0 ? free[0] : builder.port;
        this.controllerPort = builder.controllerPort == 0 ? free[1] : builder.controllerPort;
        Path logFile = builder.logFile != null ? builder.logFile : dataDir.resolveSibling("kafka.log");
        this.process = JavaMainProcess.builder("kafka", KafkaBrokerMain.class.getName())
                .arg("data-dir", dataDir)
                .arg("port", port)
                .arg("controller-port", controllerPort)
                .heap(builder.heap)
                .logFile(logFile)
                .echo(builder.echo)
                .detached(builder.detached)
                .stopOnJvmExit(builder.stopOnJvmExit)
                .build();
    }

    public static Builder builder(Path dataDir) {
        return new Builder(dataDir);
    }

    /** Starts the child JVM and returns once the broker answers; may be called again after stop or kill. */
    public void start() throws IOException, InterruptedException {
        Ports.requireFree(port, "Kafka", "KAFKA_PORT");
        Ports.requireFree(controllerPort, "Kafka controller", "KAFKA_CONTROLLER_PORT");
        process.start();
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public int controllerPort() {
        return controllerPort;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Controlled shutdown (SIGTERM), SIGKILL after a grace period. */
    @Override
    public void stop() {
        process.stop();
    }

    /** SIGKILL: the broker crashes and recovers its logs at the next start. */
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
    public Path logFile() {
        return process.logFile();
    }

    @Override
    public String tail(int lines) {
        return process.tail(lines);
    }

    @Override
    public OptionalLong exitCode() {
        return process.exitCode();
    }

    @Override
    public String name() {
        return process.name();
    }

    /** Settings of a {@link KafkaBrokerProcess}. */
    public static final class Builder {
        private final Path dataDir;
        private int port;
        private int controllerPort;
        private Path logFile;
        private String heap = "512m";
        private boolean echo;
        private boolean detached;
        private boolean stopOnJvmExit = true;

        private Builder(Path dataDir) {
            this.dataDir = dataDir;
        }

        /** Client and controller ports; 0 (default) picks a free port once, kept across restarts. */
        public Builder ports(int port, int controllerPort) {
            this.port = port;
            this.controllerPort = controllerPort;
            return this;
        }

        /** Default: {@code kafka.log} next to the data directory. */
        public Builder logFile(Path logFile) {
            this.logFile = logFile;
            return this;
        }

        public Builder heap(String heap) {
            this.heap = heap;
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

        public KafkaBrokerProcess build() {
            return new KafkaBrokerProcess(this);
        }
    }
}
