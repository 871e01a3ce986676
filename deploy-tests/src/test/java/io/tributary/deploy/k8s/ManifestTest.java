package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every Kubernetes object under k8s/aws is valid against the Kubernetes 1.34 schema, and each deployment (an
 * overlay with the cluster-wide objects and the perf Jobs) is wired correctly and matches the code. No cluster is
 * needed.
 */
class ManifestTest {

    private static final DeployContext CONTEXT = DeployContext.load();

    private static List<String> findings(Manifests manifests) {
        List<String> findings = new ArrayList<>(ManifestChecks.check(manifests, CONTEXT));
        findings.addAll(ServiceChecks.check(manifests, CONTEXT));
        manifests.all().forEach(o -> findings.addAll(KubeSchema.validate(o)));
        return findings;
    }

    @ParameterizedTest
    @ValueSource(strings = {"in-cluster", "aws-managed"})
    void eachDeploymentIsValidAndMatchesTheServices(String overlay) {
        Manifests manifests = DeployContext.deployment(overlay);
        assertThat(manifests.all()).hasSizeGreaterThan(10);
        assertThat(findings(manifests)).isEmpty();
    }

    @Test
    void theInClusterOverlayRunsTheDataStoresAndTheManagedOneDoesNot() {
        Set<String> inCluster = ids(DeployContext.deployment("in-cluster"));
        Set<String> managed = ids(DeployContext.deployment("aws-managed"));
        assertThat(inCluster)
                .contains(
                        "StatefulSet/kafka",
                        "StatefulSet/postgres",
                        "StatefulSet/redis",
                        "StatefulSet/transport",
                        "Deployment/routing",
                        "Deployment/session",
                        "Service/transport-mqtt");
        assertThat(managed)
                .contains("StatefulSet/transport", "Deployment/routing", "Deployment/session")
                .doesNotContain("StatefulSet/kafka", "StatefulSet/postgres", "StatefulSet/redis");
    }

    private static Set<String> ids(Manifests manifests) {
        Set<String> ids = new TreeSet<>();
        manifests.all().forEach(o -> ids.add(Manifests.id(o)));
        return ids;
    }

    @Test
    void everyManifestFileIsPartOfAKustomization() throws IOException {
        Path aws = Repo.path(DeployContext.AWS_DIR);
        Set<Path> referenced = new TreeSet<>();
        referenced.add(aws.resolve("cluster/storage-class.yaml"));
        referenced.add(aws.resolve("cluster/eksctl.yaml"));
        try (Stream<Path> files = Files.walk(aws)) {
            for (Path kustomization : files.filter(
                            f -> f.getFileName().toString().equals("kustomization.yaml"))
                    .toList()) {
                Yamls.listAt(Yamls.load(Repo.read(kustomization)), "resources")
                        .forEach(r -> referenced.add(kustomization
                                .getParent()
                                .resolve(String.valueOf(r))
                                .normalize()));
            }
        }
        try (Stream<Path> files = Files.walk(aws)) {
            List<Path> orphans = files.filter(f -> f.toString().endsWith(".yaml"))
                    .filter(f -> !f.getFileName().toString().equals("kustomization.yaml"))
                    .filter(f -> !f.startsWith(aws.resolve("monitoring")) && !f.startsWith(aws.resolve(".build")))
                    .filter(f -> !referenced.contains(f))
                    .toList();
            assertThat(orphans).as("manifests no kustomization applies").isEmpty();
        }
    }

    @Test
    void theClusterConfigNamesItsVersionAndSaneNodeGroups() {
        Map<String, Object> eksctl = Yamls.load(Repo.read(DeployContext.AWS_DIR + "/cluster/eksctl.yaml"));
        assertThat(eksctl).containsEntry("apiVersion", "eksctl.io/v1alpha5").containsEntry("kind", "ClusterConfig");
        assertThat(Yamls.text(eksctl, "metadata.name")).isNotBlank();
        assertThat(Yamls.text(eksctl, "metadata.region")).isNotBlank();
        assertThat(Yamls.text(eksctl, "metadata.version")).isEqualTo(KubeSchema.KUBERNETES_VERSION);
        for (Object group : Yamls.listAt(eksctl, "managedNodeGroups")) {
            int min = ((Number) Yamls.at(group, "minSize")).intValue();
            int desired = ((Number) Yamls.at(group, "desiredCapacity")).intValue();
            int max = ((Number) Yamls.at(group, "maxSize")).intValue();
            assertThat(min).as(Yamls.text(group, "name")).isLessThanOrEqualTo(desired);
            assertThat(desired).as(Yamls.text(group, "name")).isLessThanOrEqualTo(max);
        }
        assertThat(CONTEXT.pools()).containsKeys("transport", "services", "data", "perf", "system");
    }

    @Test
    void everyAutoscaledMetricIsServedAndEverySecretIsCreated() {
        assertThat(CONTEXT.adapterMetrics()).contains("tributary_connections");
        assertThat(CONTEXT.scriptSecrets()).containsEntry("tributary-postgres", Set.of("POSTGRES_PASSWORD"));
    }
}
