package io.tributary.deploy.compose;

import static io.tributary.deploy.compose.ComposeEdits.compose;
import static io.tributary.deploy.compose.ComposeEdits.findings;
import static io.tributary.deploy.compose.ComposeEdits.replace;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The compose Kafka as shipped wants SASL/SCRAM and enforces the ACLs of deploy/kafka/acls.conf (issue 34), and each
 * way of opening it again, made once in the real docker-compose.yml, is reported: a PLAINTEXT listener, no
 * authorizer or one that allows everything without an ACL, a service without its SASL login or with another's, a
 * SCRAM password written out, a service that does not wait for kafka-setup.
 */
class ComposeKafkaSecurityTest {

    @Test
    void theShippedKafkaAuthenticatesEveryServiceAndEnforcesAcls() {
        assertThat(ComposeKafkaChecks.check(ComposeProject.load())).isEmpty();
        ComposeProject project = ComposeProject.load();
        assertThat(project.services().get("kafka").environment())
                .containsEntry("KAFKA_AUTHORIZER_CLASS_NAME", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")
                .containsEntry("KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND", "false")
                .containsEntry("KAFKA_SUPER_USERS", "User:admin");
        assertThat(project.services().get("transport-1").environment())
                .containsEntry(
                        "TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"transport\""
                                + " password=\"${KAFKA_TRANSPORT_PASSWORD}\";");
    }

    @Test
    void aPlaintextListenerIsReported() {
        String opened = replace(
                compose(),
                "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: SASL:SASL_PLAINTEXT,",
                "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: SASL:PLAINTEXT,");
        assertThat(findings(opened))
                .anyMatch(f -> f.startsWith("kafka: Kafka listener SASL is PLAINTEXT, so whoever reaches it"));
        String before = replace(
                compose(),
                "      KAFKA_LISTENERS: SASL://:9092,CONTROLLER://:9093,HOST://:9094\n",
                "      KAFKA_LISTENERS: PLAINTEXT://:9092,CONTROLLER://:9093,HOST://:9094\n");
        assertThat(findings(before)).anyMatch(f -> f.startsWith("kafka: Kafka listener PLAINTEXT is PLAINTEXT"));
    }

    @Test
    void aMissingAuthorizerOrOneThatAllowsEverybodyIsReported() {
        String none = replace(
                compose(),
                "      KAFKA_AUTHORIZER_CLASS_NAME: org.apache.kafka.metadata.authorizer.StandardAuthorizer\n",
                "");
        assertThat(findings(none)).anyMatch(f -> f.startsWith("kafka: Kafka has no authorizer"));
        String everybody = replace(
                compose(),
                "      KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: \"false\"\n",
                "      KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: \"true\"\n");
        assertThat(findings(everybody))
                .anyMatch(f -> f.startsWith("kafka: KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND is true"));
        String anonymous = replace(
                compose(),
                "      KAFKA_SUPER_USERS: User:admin\n",
                "      KAFKA_SUPER_USERS: User:admin;User:ANONYMOUS\n");
        assertThat(findings(anonymous))
                .anyMatch(f -> f.startsWith("kafka: KAFKA_SUPER_USERS is User:admin;User:ANONYMOUS"));
    }

    @Test
    void aServiceWithoutItsSaslLoginOrWithAnothersIsReported() {
        String jaas = "      TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG: 'org.apache.kafka.common.security.scram"
                + ".ScramLoginModule required username=\"routing\" password=\"$${KAFKA_ROUTING_PASSWORD}\";'\n";
        assertThat(findings(replace(compose(), jaas, "")))
                .anyMatch(f -> f.startsWith("routing: TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG null is no"));
        String transports = replace(compose(), jaas, jaas.replace("\"routing\"", "\"transport\""));
        assertThat(findings(transports))
                .anyMatch(f -> f.startsWith("routing: logs in to Kafka as transport, not as its own user routing"));
        String noSasl = replace(compose(), "  TRIBUTARY_KAFKA_PROPERTIES_SECURITY_PROTOCOL: SASL_PLAINTEXT\n", "");
        assertThat(findings(noSasl))
                .anyMatch(f -> f.startsWith("session: TRIBUTARY_KAFKA_PROPERTIES_SECURITY_PROTOCOL is null"))
                .anyMatch(f -> f.startsWith("transport-2: TRIBUTARY_KAFKA_PROPERTIES_SECURITY_PROTOCOL is null"));
        String noEnvFile = replace(
                compose(), "      - deploy/compose/secrets/kafka-routing.env\n    healthcheck:", "    healthcheck:");
        assertThat(findings(noEnvFile))
                .anyMatch(f -> f.startsWith("routing: KAFKA_ROUTING_PASSWORD does not come from a generated secret"));
        String setupWithout = replace(compose(), "      - deploy/compose/secrets/kafka-routing.env\n", "");
        assertThat(findings(setupWithout))
                .anyMatch(f -> f.startsWith("kafka-setup: KAFKA_ROUTING_PASSWORD does not come from an env_file"));
    }

    @Test
    void aScramPasswordWrittenOutIsReported() {
        String written = replace(compose(), "password=\"$${KAFKA_SESSION_PASSWORD}\"", "password=\"tributary-local\"");
        assertThat(findings(written))
                .anyMatch(f -> f.startsWith("session: the SCRAM password is written out"))
                .anyMatch(f -> f.startsWith("session: the secret TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG is set"));
        String inKafka = replace(
                compose(),
                "      KAFKA_SUPER_USERS: User:admin\n",
                "      KAFKA_SUPER_USERS: User:admin\n      KAFKA_ADMIN_PASSWORD: tributary-local\n");
        assertThat(findings(inKafka))
                .anyMatch(f -> f.startsWith("kafka: the secret KAFKA_ADMIN_PASSWORD is set in docker-compose.yml"))
                .anyMatch(f -> f.startsWith("kafka: KAFKA_ADMIN_PASSWORD does not come from an env_file"));
    }

    @Test
    void aServiceThatDoesNotWaitForKafkaSetupOrNoSetupIsReported() {
        String early = replace(
                compose(),
                "      kafka-setup: { condition: service_completed_successfully }\n      redis:",
                "      redis:");
        assertThat(findings(early)).anyMatch(f -> f.startsWith("routing: does not wait for kafka-setup to complete"));
        String noSetup = replace(
                compose(),
                "    command: [\"bash\", \"/etc/tributary/kafka/setup-kafka.sh\"]\n",
                "    command: [\"true\"]\n");
        assertThat(findings(noSetup))
                .anyMatch(f -> f.startsWith("kafka-setup does not run deploy/kafka/setup-kafka.sh"));
    }
}
