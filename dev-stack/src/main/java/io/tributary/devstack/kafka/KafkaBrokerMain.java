package io.tributary.devstack.kafka;

import io.tributary.devstack.process.ChildMain;
import java.nio.file.Path;
import java.util.Map;

/**
 * Runs {@link EmbeddedKafka} as its own OS process until SIGTERM.
 *
 * <p>Options (environment fallback): {@code --data-dir} ({@code KAFKA_DATA_DIR}, required), {@code --port}
 * ({@code KAFKA_PORT}, default a free port), {@code --controller-port} ({@code KAFKA_CONTROLLER_PORT}, default a
 * free port), {@code --sasl-port} and {@code --sasl-plain-users} ({@code KAFKA_SASL_PORT},
 * {@code KAFKA_SASL_PLAIN_USERS}: a SASL/PLAIN listener with these {@code user=password,...}, none by default),
 * {@code --sasl-authorizer true} ({@code KAFKA_SASL_AUTHORIZER}: that listener with SCRAM and ACLs enforced,
 * {@link SaslPlainListener#authorizer()}). Once
 * the broker answers it prints one line {@code TRIBUTARY-DEVSTACK-READY <bootstrap servers>}.
 */
public final class KafkaBrokerMain {

    private KafkaBrokerMain() {}

    public static void main(String[] args) {
        Map<String, String> options = ChildMain.options(args);
        Path dataDir = ChildMain.requiredPath(options, "data-dir", "KAFKA_DATA_DIR");
        int port = ChildMain.port(options, "port", "KAFKA_PORT");
        int controllerPort = ChildMain.port(options, "controller-port", "KAFKA_CONTROLLER_PORT");
        int saslPort = ChildMain.port(options, "sasl-port", "KAFKA_SASL_PORT");
        SaslPlainListener sasl = ChildMain.option(options, "sasl-plain-users", "KAFKA_SASL_PLAIN_USERS")
                .map(users -> new SaslPlainListener(
                        saslPort,
                        SaslPlainListener.parseUsers(users),
                        ChildMain.option(options, "sasl-authorizer", "KAFKA_SASL_AUTHORIZER")
                                .map(Boolean::parseBoolean)
                                .orElse(false)))
                .orElse(null);
        ChildMain.serve(
                "kafka",
                () -> EmbeddedKafka.start(dataDir, port, controllerPort, sasl),
                EmbeddedKafka::bootstrapServers);
    }
}
