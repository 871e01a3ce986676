package io.tributary.deploy.compose;

import io.tributary.deploy.compose.ComposeProject.ComposeService;
import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.support.KafkaSecurityRules;
import java.util.ArrayList;
import java.util.List;

/**
 * The compose Kafka wants SASL/SCRAM and enforces ACLs ({@link KafkaSecurityRules}): the broker's listeners and
 * authorizer, each service's login with a password from a generated env_file, and the one-shot kafka-setup that
 * creates the users and ACLs before any service starts.
 */
final class ComposeKafkaChecks {

    private ComposeKafkaChecks() {}

    static List<String> check(ComposeProject project) {
        List<String> findings = new ArrayList<>();
        ServiceCatalog catalog = ServiceCatalog.load();
        project.services().forEach((name, service) -> {
            String repository = service.image() == null ? "" : ServiceCatalog.repositoryOf(service.image());
            if (repository.equals("apache/kafka") && service.environment().containsKey("KAFKA_LISTENERS")) {
                findings.addAll(KafkaSecurityRules.broker(name, service.environment()));
                if (!generated(service, "KAFKA_ADMIN_PASSWORD")) {
                    findings.add(name + ": KAFKA_ADMIN_PASSWORD does not come from an env_file " + ComposeSecrets.SCRIPT
                            + " generates");
                }
            }
            if (service.image() != null) {
                catalog.byImage(service.image()).ifPresent(settings -> {
                    findings.addAll(KafkaSecurityRules.service(
                            name, settings.module(), service.environment(), v -> generated(service, v)));
                    if (!"service_completed_successfully"
                            .equals(service.dependsOn().get("kafka-setup"))) {
                        findings.add(name + ": does not wait for kafka-setup to complete (its Kafka user and ACLs)");
                    }
                });
            }
        });
        ComposeService setup = project.services().get("kafka-setup");
        String command = setup == null ? "" : String.join(" ", setup.command());
        if (!command.contains("setup-kafka.sh")) {
            findings.add("kafka-setup does not run deploy/kafka/setup-kafka.sh (command '" + command + "'): no"
                    + " service has its Kafka user and ACLs");
        }
        for (String user : List.of("ADMIN", "TRANSPORT", "ROUTING", "SESSION")) {
            String variable = "KAFKA_" + user + "_PASSWORD";
            if (setup != null && !generated(setup, variable)) {
                findings.add("kafka-setup: " + variable + " does not come from an env_file " + ComposeSecrets.SCRIPT
                        + " generates");
            }
        }
        return findings;
    }

    /** Given only by an env_file (the generated ones are the only env files allowed), not in the compose file. */
    private static boolean generated(ComposeService service, String variable) {
        return service.environment().containsKey(variable)
                && !service.explicitEnvironment().containsKey(variable);
    }
}
