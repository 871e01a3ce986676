package io.tributary.deploy.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServiceCatalogTest {

    private final ServiceCatalog catalog = ServiceCatalog.load();

    @Test
    void placeholdersIncludeNestedDefaultsAndSkipPropertyReferences() {
        Map<String, String> found = Placeholders.in("${TRIBUTARY_NODE_ID:${HOSTNAME:transport-1}} ${tributary.x} ${A}");

        assertThat(found)
                .containsExactly(
                        Map.entry("TRIBUTARY_NODE_ID", "${HOSTNAME:transport-1}"),
                        Map.entry("HOSTNAME", "transport-1"),
                        Map.entry("A", ""));
    }

    @Test
    void placeholdersInsideAPropertyReferenceAreRead() {
        assertThat(Placeholders.in("${tributary.log-format.${LOG_FORMAT:text}:}"))
                .containsExactly(Map.entry("LOG_FORMAT", "text"));
        assertThat(catalog.all())
                .allSatisfy(service -> assertThat(service.defaultOf("LOG_FORMAT"))
                        .as(service.module())
                        .isEqualTo("text"));
    }

    @Test
    void variablesWithDeveloperDefaultsMustBeSetByDeployments() {
        ServiceSettings settings = ServiceCatalog.settings("x", "tributary/x", """
                a:
                  servers: ${KAFKA_BOOTSTRAP_SERVERS:localhost:9092}
                  password: ${POSTGRES_PASSWORD:}
                  node: ${NODE_ID:${HOSTNAME:n1}}
                  port: ${HTTP_PORT:8080}
                  topics:
                    partitions: ${PARTITIONS:12}
                spring:
                  lifecycle:
                    timeout-per-shutdown-phase: 45s
                """, Path.of("."));

        assertThat(settings.mustBeSet()).containsExactly("KAFKA_BOOTSTRAP_SERVERS", "NODE_ID", "POSTGRES_PASSWORD");
        assertThat(settings.topicVariables()).containsExactly("PARTITIONS");
        assertThat(settings.shutdownPhaseSeconds()).isEqualTo(45);
    }

    @Test
    void everyServiceReadsTheSameTopicSettingsWithTheSameDefaults() {
        ServiceSettings transport = catalog.module("transport-service");
        assertThat(transport.topicVariables()).contains("TRIBUTARY_PUBLISH_PARTITIONS", "TRIBUTARY_REPLICATION_FACTOR");
        for (ServiceSettings service : catalog.all()) {
            assertThat(service.topicVariables()).as(service.module()).isEqualTo(transport.topicVariables());
            for (String variable : transport.topicVariables()) {
                assertThat(service.defaultOf(variable))
                        .as(service.module() + " " + variable)
                        .isEqualTo(transport.defaultOf(variable));
            }
            assertThat(service.mustBeSet()).as(service.module()).contains("KAFKA_BOOTSTRAP_SERVERS");
        }
    }

    @Test
    void theTransportNodeIdMustBeSetExplicitly() {
        assertThat(catalog.module("transport-service").mustBeSet())
                .contains("TRIBUTARY_NODE_ID", "SESSION_SERVICE_URL");
        assertThat(catalog.module("session-service").mustBeSet())
                .contains("POSTGRES_URL", "POSTGRES_PASSWORD", "REDIS_URL");
    }
}
