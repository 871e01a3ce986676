package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.KafkaSecurityRules;
import io.tributary.deploy.support.Repo;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * One definition of the Kafka users and ACLs (issue 34): deploy/kafka holds the broker's start wrapper, setup-kafka.sh
 * and acls.conf, which compose mounts; the Helm chart and kustomize cannot read a file outside their directories, so
 * they ship copies, which must be identical, and what they render into the ConfigMap tributary-kafka-security is
 * those files. The integration test KafkaAclTest runs on deploy/kafka/acls.conf.
 */
class KafkaSecurityFilesTest {

    private static final List<String> FILES = List.of("kafka-broker.sh", "setup-kafka.sh", "acls.conf");
    private static final Map<String, String> COPIES = Map.of(
            "k8s/helm/tributary/files/kafka/", "the Helm chart", "k8s/aws/data-stores/kafka-security/", "kustomize");

    @Test
    void theChartAndKustomizeShipTheFilesOfDeployKafkaUnchanged() {
        for (String file : FILES) {
            String original = Repo.read("deploy/kafka/" + file);
            COPIES.forEach((dir, who) -> assertThat(Repo.read(dir + file))
                    .as(
                            "%s%s (%s) must be a copy of deploy/kafka/%s: cp deploy/kafka/%s %s",
                            dir, file, who, file, file, dir)
                    .isEqualTo(original));
        }
        for (String file : List.of("kafka-broker.sh", "setup-kafka.sh")) {
            assertThat(Files.isExecutable(Repo.path("deploy/kafka/" + file)))
                    .as(file)
                    .isTrue();
        }
    }

    @Test
    void theRenderedConfigMapsHoldThoseFiles() {
        List<Manifests> deployments = List.of(
                DeployContext.deployment("in-cluster"),
                HelmChart.deployment(Repo.path(HelmChart.CHART_DIR), null, Map.of()));
        for (Manifests manifests : deployments) {
            Map<String, String> data = manifests.configMapData("tributary-kafka-security");
            assertThat(data).containsOnlyKeys(FILES);
            for (String file : FILES) {
                assertThat(data.get(file).strip())
                        .as(file)
                        .isEqualTo(Repo.read("deploy/kafka/" + file).strip());
            }
        }
    }

    @Test
    void theAclsGrantTheThreeServicesOnlyAndTheSetupCreatesExactlyTheirUsers() {
        assertThat(KafkaSecurityRules.aclPrincipals()).containsExactlyInAnyOrder("transport", "routing", "session");
        assertThat(Repo.read("deploy/kafka/setup-kafka.sh")).contains("for user in transport routing session; do");
        for (String line : Repo.read(KafkaSecurityRules.ACL_FILE).split("\n")) {
            if (line.isBlank() || line.strip().startsWith("#")) {
                continue;
            }
            String[] fields = line.strip().split("\\s+");
            assertThat(fields).as(line).hasSize(5);
            assertThat(Set.of("topic", "group", "transactional-id")).as(line).contains(fields[1]);
            assertThat(Set.of("literal", "prefixed")).as(line).contains(fields[2]);
            assertThat(fields[4]).as(line).doesNotContain("All").doesNotContain("Alter");
        }
    }
}
