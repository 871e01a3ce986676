package io.tributary.deploy.k8s;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Helm chart k8s/helm/tributary, linted and rendered by Helm itself (helm-java: Helm's Go code as a native
 * library, no helm binary or cluster needed), as release "tributary" in namespace {@link Manifests#NAMESPACE}.
 */
final class HelmChart {

    static final String CHART_DIR = "k8s/helm/tributary";

    private HelmChart() {}

    static LintResult lint(Path chart) {
        return new Helm(chart).lint().strict().call();
    }

    /** The objects {@code helm template} renders with a values file (or the defaults, for null) and --set pairs. */
    static List<Map<String, Object>> render(Path chart, Path valuesFile, Map<String, Object> sets) {
        TemplateCommand template =
                new Helm(chart).template().withName("tributary").withNamespace(Manifests.NAMESPACE);
        if (valuesFile != null) {
            template = template.withValuesFile(valuesFile);
        }
        for (Map.Entry<String, Object> set : sets.entrySet()) {
            template = template.set(set.getKey(), set.getValue());
        }
        return Yamls.loadAll(template.call());
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
}
