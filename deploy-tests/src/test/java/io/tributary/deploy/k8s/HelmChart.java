package io.tributary.deploy.k8s;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The Helm chart k8s/helm/tributary, linted and rendered by Helm itself (helm-java: Helm's Go code as a native
 * library, no helm binary or cluster needed), as release "tributary" in namespace {@link Manifests#NAMESPACE}.
 *
 * <p>The chart reads the cluster in one helper, {@code tributary.existing} (Helm's {@code lookup}: the generated TLS
 * Secret kept by upgrades). {@code helm template} answers it with nothing, but helm-java's rendering asks a cluster
 * and fails without one, so the chart is rendered from a copy whose helper answers from the value
 * {@value #CLUSTER_VALUE} ("Kind/name" -> object) instead: empty, as for a first install, unless a test gives
 * objects.
 */
final class HelmChart {

    static final String CHART_DIR = "k8s/helm/tributary";
    static final String CLUSTER_VALUE = "testCluster";

    /** The listeners of the kustomize overlays and of the chart before TLS was its default (issue 34). */
    static final Map<String, Object> PLAIN_MQTT =
            Map.of("transport.tls.enabled", "false", "transport.plainMqtt.enabled", "true", "transport.wsPort", "8083");

    /**
     * The findings of every check on a deployment without plain MQTT: the perf Jobs of k8s/aws/perf speak plain
     * MQTT to transport-mqtt:1883 (perf runs need transport.plainMqtt.enabled=true).
     */
    static final List<String> PERF_WITHOUT_PLAIN_MQTT = List.of(
            "Job/perf-subscribers: TARGET transport-mqtt:1883 does not lead to the transport's MQTT port",
            "Job/perf-publishers: TARGET transport-mqtt:1883 does not lead to the transport's MQTT port");

    private static final String LOOKUP =
            "{{- toJson (lookup \"v1\" .kind .root.Release.Namespace .name | default dict) -}}";
    private static final String FROM_VALUES = "{{- toJson (index (.root.Values." + CLUSTER_VALUE
            + " | default dict) (printf \"%s/%s\" .kind .name) | default dict) -}}";

    private HelmChart() {}

    static LintResult lint(Path chart) {
        return new Helm(chart).lint().strict().call();
    }

    /** The objects {@code helm template} renders with a values file (or the defaults, for null) and --set pairs. */
    static List<Map<String, Object>> render(Path chart, Path valuesFile, Map<String, Object> sets) {
        TemplateCommand template =
                new Helm(withoutCluster(chart)).template().withName("tributary").withNamespace(Manifests.NAMESPACE);
        if (valuesFile != null) {
            template = template.withValuesFile(valuesFile);
        }
        for (Map.Entry<String, Object> set : sets.entrySet()) {
            template = template.set(set.getKey(), set.getValue());
        }
        return Yamls.loadAll(template.call());
    }

    /** The notes (NOTES.txt) a first install prints, from a client-only dry run. */
    static String notes(Path chart, Map<String, Object> sets) {
        InstallCommand install = new Helm(withoutCluster(chart))
                .install()
                .withName("tributary")
                .withNamespace(Manifests.NAMESPACE)
                .clientOnly()
                .dryRun();
        for (Map.Entry<String, Object> set : sets.entrySet()) {
            install = install.set(set.getKey(), set.getValue());
        }
        String output = install.call().getOutput();
        int notes = output.indexOf("NOTES:");
        if (notes < 0) {
            throw new IllegalStateException("no NOTES in the install's output:\n" + output);
        }
        return output.substring(notes);
    }

    /** Copies the chart directory {@code chart} to {@code into} (which must not exist yet), file by file. */
    static void copy(Path chart, Path into) throws IOException {
        try (Stream<Path> files = Files.walk(chart)) {
            for (Path file : files.toList()) {
                Path target = into.resolve(chart.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }

    /** A copy of the chart whose cluster lookups answer from the value {@value #CLUSTER_VALUE}. */
    static Path withoutCluster(Path chart) {
        try {
            Path copy = Files.createTempDirectory(
                            Files.createDirectories(Repo.path("deploy-tests/target/helm-charts")), "chart")
                    .resolve("tributary");
            copy(chart, copy);
            Path helpers = copy.resolve("templates/_helpers.tpl");
            String text = Files.readString(helpers);
            if (!text.contains(LOOKUP)) {
                throw new IllegalStateException(chart + ": tributary.existing no longer reads " + LOOKUP);
            }
            Files.writeString(helpers, text.replace(LOOKUP, FROM_VALUES));
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Everything an install through the chart applies: the rendered chart, the Namespace (scripts/install.sh applies
     * base/namespace.yaml first; the chart does not own it by default), the cluster-wide StorageClass and the perf
     * Jobs, which are checked together with the services as for the kustomize overlays.
     */
    static Manifests deployment(Path chart, Path valuesFile, Map<String, Object> sets) {
        List<Map<String, Object>> objects = new ArrayList<>(render(chart, valuesFile, sets));
        objects.addAll(Yamls.loadAll(Repo.read(DeployContext.AWS_DIR + "/base/namespace.yaml")));
        objects.addAll(Yamls.loadAll(Repo.read(DeployContext.AWS_DIR + "/cluster/storage-class.yaml")));
        objects.addAll(Kustomize.render(Repo.path(DeployContext.AWS_DIR + "/perf")));
        return new Manifests(objects);
    }

    /** {@link #deployment} with the listeners of {@link #PLAIN_MQTT} and further --set pairs. */
    static Manifests plainDeployment(Path chart, Path valuesFile, Map<String, Object> sets) {
        Map<String, Object> all = new java.util.LinkedHashMap<>(PLAIN_MQTT);
        all.putAll(sets);
        return deployment(chart, valuesFile, all);
    }
}
