package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Neither the kustomize overlays nor the Helm chart (as rendered) publish a secret (issue 34). */
class NoSecretInManifestsTest {

    private static final Path CHART = Repo.path(HelmChart.CHART_DIR);

    @Test
    void theOverlaysAndTheChartReadEverySecretFromASecret() {
        for (String overlay : List.of("in-cluster", "aws-managed")) {
            assertThat(ManifestSecretChecks.check(DeployContext.deployment(overlay)))
                    .as(overlay)
                    .isEmpty();
        }
        assertThat(ManifestSecretChecks.check(HelmChart.deployment(CHART, null, Map.of())))
                .isEmpty();
        assertThat(ManifestSecretChecks.check(
                        HelmChart.deployment(CHART, CHART.resolve("values-aws-managed.yaml"), Map.of())))
                .isEmpty();
    }

    @Test
    void aLiteralPasswordOrATokenInAConfigMapIsReported() {
        Manifests manifests = DeployContext.deployment("in-cluster");
        Map<String, Object> session = manifests.find("Deployment", "session").orElseThrow();
        List<Object> env = Yamls.list(Manifests.containers(session).get(0).get("env"));
        Map<String, Object> literal = new LinkedHashMap<>();
        literal.put("name", "TRIBUTARY_ADMIN_PASSWORD");
        literal.put("value", "tributary-local-admin");
        env.add(literal);
        Yamls.map(manifests.find("ConfigMap", "tributary-kafka").orElseThrow().get("data"))
                .put("TRIBUTARY_INTERNAL_TOKEN", "tributary-local-internal-token");
        Yamls.map(manifests
                        .find("ConfigMap", "tributary-session-stores")
                        .orElseThrow()
                        .get("data"))
                .put("REDIS_URL", "redis://:tributary-local@redis:6379");
        assertThat(ManifestSecretChecks.check(manifests))
                .contains(
                        "Deployment/session container session: TRIBUTARY_ADMIN_PASSWORD is not read from a Secret"
                                + " (secretKeyRef)",
                        "ConfigMap/tributary-kafka: holds the secret TRIBUTARY_INTERNAL_TOKEN",
                        "ConfigMap/tributary-session-stores: REDIS_URL carries a password in its URL");
    }
}
