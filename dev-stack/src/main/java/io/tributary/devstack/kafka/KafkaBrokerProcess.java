package io.tributary.devstack.kafka;

import io.tributary.devstack.process.ForwardingChildProcess;
import io.tributary.devstack.process.JavaMainProcess;
import io.tributary.devstack.process.JvmProcessSettings;
import java.io.IOException;
import java.nio.file.Path;

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
public final class KafkaBrokerProcess extends ForwardingChildProcess<JavaMainProcess> {

    private final Path dataDir;
    private final KafkaPorts ports;
    private final SaslPlainListener sasl;

    private KafkaBrokerProcess(Path dataDir, KafkaPorts ports, SaslPlainListener sasl, JavaMainProcess process) {
        super(process);
        this.dataDir = dataDir;
        this.ports = ports;
        this.sasl = sasl;
    }

    public static Builder builder(Path dataDir) {
        return new Builder(dataDir);
    }

    /** Starts the child JVM and returns once the broker answers; may be called again after stop or kill. */
    public void start() throws IOException, InterruptedException {
        ports.requireFree();
        process.start();
    }

    public String bootstrapServers() {
        return ports.bootstrapServers();
    }

    public int port() {
        return ports.client();
    }

    /** The SASL/PLAIN listener's address; empty without one. */
    public java.util.Optional<String> saslBootstrapServers() {
        return java.util.Optional.ofNullable(sasl).map(SaslPlainListener::bootstrapServers);
    }

    public int controllerPort() {
        return ports.controller();
    }

    public Path dataDir() {
        return dataDir;
    }

    /**
     * Settings of a {@link KafkaBrokerProcess}; default heap 512m, default log file {@code kafka.log} next to the
     * data directory.
     */
    public static final class Builder extends JvmProcessSettings<Builder> {
        private final Path dataDir;
        private int port;
        private int controllerPort;
        private java.util.Map<String, String> saslUsers;
        private boolean saslAuthorizer;

        private Builder(Path dataDir) {
            super("512m");
            this.dataDir = dataDir;
        }

        /** Client and controller ports; 0 (default) picks a free port once, kept across restarts. */
        public Builder ports(int port, int controllerPort) {
            this.port = port;
            this.controllerPort = controllerPort;
            return this;
        }

        /** A SASL_PLAINTEXT listener (mechanism PLAIN) on a free port as well, for these users and passwords. */
        public Builder saslPlainUsers(java.util.Map<String, String> users) {
            this.saslUsers = users;
            return this;
        }

        /** That listener with SCRAM-SHA-512 too and ACLs enforced ({@link SaslPlainListener#authorizer()}). */
        public Builder saslAuthorizer() {
            this.saslAuthorizer = true;
            return this;
        }

        public KafkaBrokerProcess build() {
            Path dir = dataDir.toAbsolutePath();
            KafkaPorts chosen = KafkaPorts.choose(port, controllerPort);
            SaslPlainListener sasl = saslUsers == null
                    ? null
                    : new SaslPlainListener(io.tributary.devstack.net.Ports.freePort(), saslUsers, saslAuthorizer);
            JavaMainProcess.Builder main = JavaMainProcess.builder("kafka", KafkaBrokerMain.class.getName())
                    .logFile(dir.resolveSibling("kafka.log"));
            applyJvmTo(main)
                    .arg("data-dir", dir)
                    .arg("port", chosen.client())
                    .arg("controller-port", chosen.controller());
            if (sasl != null) {
                main.arg("sasl-port", sasl.port()).arg("sasl-plain-users", sasl.usersOption());
                if (sasl.authorizer()) {
                    main.arg("sasl-authorizer", true);
                }
            }
            return new KafkaBrokerProcess(dir, chosen, sasl, main.build());
        }
    }
}
