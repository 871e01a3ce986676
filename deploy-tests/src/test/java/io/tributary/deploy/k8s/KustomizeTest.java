package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.deploy.support.Yamls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The offline renderer follows kustomize where the repository relies on it, and refuses what it does not know. */
class KustomizeTest {

    @TempDir
    Path dir;

    private void write(String file, String text) throws IOException {
        Files.createDirectories(dir.resolve(file).getParent());
        Files.writeString(dir.resolve(file), text);
    }

    @Test
    void resourcesGeneratorsMergeAndNamespace() throws IOException {
        write("base/kustomization.yaml", """
                namespace: ns
                resources: [app.yaml]
                configMapGenerator:
                  - name: settings
                    literals: [A=1]
                """);
        write("base/app.yaml", """
                apiVersion: v1
                kind: Namespace
                metadata: {name: ns}
                ---
                apiVersion: v1
                kind: Service
                metadata: {name: svc}
                """);
        write("overlay/kustomization.yaml", """
                resources: [../base]
                configMapGenerator:
                  - name: settings
                    behavior: merge
                    envs: [more.env]
                secretGenerator:
                  - name: secret
                    literals: [S=x]
                """);
        write("overlay/more.env", "# comment\nB=2\n");

        List<Map<String, Object>> objects = Kustomize.render(dir.resolve("overlay"));

        assertThat(objects)
                .extracting(Manifests::id)
                .containsExactly("Namespace/ns", "Service/svc", "ConfigMap/settings", "Secret/secret");
        assertThat(Yamls.text(objects.get(0), "metadata.namespace")).isNull();
        assertThat(Yamls.text(objects.get(1), "metadata.namespace")).isEqualTo("ns");
        assertThat(Yamls.strings(objects.get(2).get("data"))).containsExactly(Map.entry("A", "1"), Map.entry("B", "2"));
        assertThat(Yamls.text(objects.get(3), "data.S")).isEqualTo("eA==");
        assertThat(Yamls.text(objects.get(3), "metadata.namespace")).isNull();
    }

    @Test
    void unsupportedFieldsFailInsteadOfBeingIgnored() throws IOException {
        write("kustomization.yaml", "resources: []\npatches: []\n");
        assertThatThrownBy(() -> Kustomize.render(dir)).hasMessageContaining("'patches' is not supported");
    }
}
