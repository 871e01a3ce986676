package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Neither the kustomize overlays nor the Helm chart (as rendered) publish a secret (issue 34): the chart's only Secret
 * data is the TLS certificate and key it generates at render time (transport.tls.generate), never a tracked one.
 */
class NoSecretInManifestsTest {

    private static final Path CHART = Repo.path(HelmChart.CHART_DIR);

    @Test
    void theOverlaysAndTheChartReadEverySecretFromASecret() {
        for (String overlay : List.of("in-cluster", "aws-managed")) {
            assertThat(ManifestSecretChecks.check(DeployContext.deployment(overlay)))
                    .as(overlay)
                    .isEmpty();
        }
        // The chart's generated TLS Secret (ChartTlsTest) is made anew by every rendering: no tracked file holds it.
        for (Path values : new Path[] {null, CHART.resolve("values-aws-managed.yaml")}) {
            Manifests chart = HelmChart.deployment(CHART, values, Map.of());
            assertThat(chart.ofKind("Secret")).isNotEmpty();
            assertThat(ManifestSecretChecks.check(chart, HelmChart.deployment(CHART, values, Map.of())))
                    .as(String.valueOf(values))
                    .isEmpty();
        }
        // One rendering alone (as for kustomize, which generates nothing) counts any Secret data as written.
        Manifests generated = HelmChart.deployment(CHART, null, Map.of());
        assertThat(ManifestSecretChecks.check(generated))
                .containsExactlyInAnyOrder(
                        "Secret/tributary-tls: a tracked manifest holds secret data [tls.crt, tls.key, ca.crt]",
                        "Secret/tributary-tls-ca: a tracked manifest holds secret data [tls.crt, tls.key]");
    }

    /** A key written in a chart file is the same in every rendering, so it is reported; generated ones are not. */
    @Test
    void aKeyWrittenInTheChartIsReported(@TempDir Path temp) throws IOException {
        Path chart = temp.resolve("tributary");
        HelmChart.copy(CHART, chart);
        Path template = chart.resolve("templates/tls-secret.yaml");
        String text = Files.readString(template);
        String generatedKey = "  tls.key: {{ $serverKey }}";
        assertThat(text).contains(generatedKey);
        Files.writeString(
                template, text.replace(generatedKey, "  tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCmZpeGVkCg=="));
        Manifests once = HelmChart.deployment(chart, null, Map.of());
        assertThat(ManifestSecretChecks.check(once, HelmChart.deployment(chart, null, Map.of())))
                .containsExactly("Secret/tributary-tls: a tracked manifest holds secret data [tls.key]");
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
