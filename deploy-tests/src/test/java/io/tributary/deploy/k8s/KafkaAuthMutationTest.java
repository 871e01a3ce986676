package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Each way of opening the in-cluster Kafka again (issue 34), made once in the real kustomize in-cluster deployment
 * and in the chart, is reported: a PLAINTEXT listener, no authorizer or one that allows everything without an ACL, a
 * service without its SASL login, a SCRAM password written out, no setup Job.
 */
class KafkaAuthMutationTest {

    private static final DeployContext CONTEXT = DeployContext.load();

    private static List<String> findingsAfter(
            Manifests manifests, String kind, String name, Consumer<Map<String, Object>> change) {
        change.accept(manifests.find(kind, name).orElseThrow());
        List<String> findings = new ArrayList<>(ManifestChecks.check(manifests, CONTEXT));
        findings.addAll(ServiceChecks.check(manifests, CONTEXT));
        findings.addAll(ManifestSecretChecks.check(manifests));
        return findings;
    }

    private static List<Manifests> deployments() {
        return List.of(
                DeployContext.deployment("in-cluster"),
                HelmChart.deployment(io.tributary.deploy.support.Repo.path(HelmChart.CHART_DIR), null, Map.of()));
    }

    private static void setEnv(Map<String, Object> workload, String name, String value) {
        for (Object node : Yamls.list(Manifests.containers(workload).get(0).get("env"))) {
            if (name.equals(Yamls.text(node, "name"))) {
                Yamls.map(node).put("value", value);
                Yamls.map(node).remove("valueFrom");
                return;
            }
        }
        throw new AssertionError("no " + name + " in " + Manifests.id(workload));
    }

    private static void removeEnv(Map<String, Object> workload, String name) {
        assertThat(Yamls.list(Manifests.containers(workload).get(0).get("env"))
                        .removeIf(node -> name.equals(Yamls.text(node, "name"))))
                .as(name)
                .isTrue();
    }

    @Test
    void theShippedInClusterKafkaPassesTheChecks() {
        for (Manifests manifests : deployments()) {
            assertThat(KafkaAuthChecks.check(manifests, List.of())).isEmpty();
        }
    }

    @Test
    void aPlaintextListenerIsReported() {
        for (Manifests manifests : deployments()) {
            assertThat(findingsAfter(
                            manifests,
                            "StatefulSet",
                            "kafka",
                            w -> setEnv(
                                    w,
                                    "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP",
                                    "SASL:PLAINTEXT,CONTROLLER:SASL_PLAINTEXT")))
                    .anyMatch(f -> f.startsWith("StatefulSet/kafka: Kafka listener SASL is PLAINTEXT"));
        }
    }

    @Test
    void aMissingAuthorizerOrOneThatAllowsEverybodyIsReported() {
        for (Manifests manifests : deployments()) {
            assertThat(findingsAfter(manifests, "StatefulSet", "kafka", w -> {
                        removeEnv(w, "KAFKA_AUTHORIZER_CLASS_NAME");
                        setEnv(w, "KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND", "true");
                    }))
                    .anyMatch(f -> f.startsWith("StatefulSet/kafka: Kafka has no authorizer"))
                    .anyMatch(f -> f.startsWith("StatefulSet/kafka: KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND is true"));
        }
    }

    @Test
    void aServiceWithoutItsSaslLoginIsReported() {
        for (Manifests manifests : deployments()) {
            assertThat(findingsAfter(
                            manifests,
                            "ConfigMap",
                            "tributary-kafka-routing",
                            m -> Yamls.map(m.get("data")).remove("TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG")))
                    .anyMatch(f -> f.startsWith("Deployment/routing container routing:"
                            + " TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG null is no"));
            assertThat(findingsAfter(
                            manifests,
                            "ConfigMap",
                            "tributary-kafka",
                            m -> Yamls.map(m.get("data")).remove("TRIBUTARY_KAFKA_PROPERTIES_SECURITY_PROTOCOL")))
                    .anyMatch(f -> f.startsWith("StatefulSet/transport container transport:"
                            + " TRIBUTARY_KAFKA_PROPERTIES_SECURITY_PROTOCOL is null"));
        }
    }

    @Test
    void aScramPasswordWrittenOutIsReported() {
        for (Manifests manifests : deployments()) {
            assertThat(findingsAfter(
                            manifests,
                            "ConfigMap",
                            "tributary-kafka-session",
                            m -> Yamls.map(m.get("data"))
                                    .put(
                                            "TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG",
                                            "org.apache.kafka.common.security.scram.ScramLoginModule required"
                                                    + " username=\"session\" password=\"tributary-local\";")))
                    .anyMatch(f ->
                            f.startsWith("Deployment/session container session: the SCRAM password is written out"))
                    .anyMatch(f -> f.equals("ConfigMap/tributary-kafka-session: holds the secret"
                            + " TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG"));
            assertThat(findingsAfter(
                            manifests,
                            "StatefulSet",
                            "kafka",
                            w -> setEnv(w, "KAFKA_ADMIN_PASSWORD", "tributary-local")))
                    .anyMatch(f -> f.startsWith("StatefulSet/kafka: KAFKA_ADMIN_PASSWORD is not read from a Secret"));
        }
    }

    @Test
    void noSetupJobIsReported() {
        for (Manifests manifests : deployments()) {
            assertThat(findingsAfter(
                            manifests,
                            "Job",
                            "kafka-setup",
                            j -> Manifests.containers(j).get(0).put("command", List.of("true"))))
                    .anyMatch(f -> f.startsWith("no Job runs setup-kafka.sh"));
        }
    }
}
