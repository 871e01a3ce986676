package io.tributary.deploy.k8s;

import io.tributary.deploy.images.JibImage;
import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the manifests are checked against besides the objects themselves: the services, the eksctl node groups,
 * the secrets the scripts create, the metrics the Prometheus adapter serves, the perf-tests image.
 *
 * @param pools node group label tributary.io/pool -> taints of that group ("key=value:Effect")
 * @param scriptSecrets Secret name -> keys, from {@code kubectl create secret generic} in k8s/aws/scripts
 * @param adapterMetrics custom metric names the Prometheus adapter rules expose
 */
record DeployContext(
        ServiceCatalog catalog,
        String projectVersion,
        Map<String, Set<String>> pools,
        Map<String, Set<String>> scriptSecrets,
        Set<String> adapterMetrics,
        JibImage perfImage) {

    static final String AWS_DIR = "k8s/aws";
    static final String POOL_LABEL = "tributary.io/pool";
    private static final Pattern CREATE_SECRET =
            Pattern.compile("create secret generic ([a-z0-9-]+)((?:\\s+--from-literal=[A-Z_]+=\\S*)+)");
    private static final Pattern LITERAL_KEY = Pattern.compile("--from-literal=([A-Z_]+)=");

    static DeployContext load() {
        return new DeployContext(
                ServiceCatalog.load(),
                Repo.projectVersion(),
                pools(Repo.read(AWS_DIR + "/cluster/eksctl.yaml")),
                scriptSecrets(Repo.path(AWS_DIR + "/scripts")),
                adapterMetrics(Repo.read(AWS_DIR + "/monitoring/prometheus-adapter-values.yaml")),
                JibImage.fromPom(Repo.path("deploy-tests/pom.xml")));
    }

    static Map<String, Set<String>> pools(String eksctlYaml) {
        Map<String, Set<String>> pools = new LinkedHashMap<>();
        for (Object node : Yamls.listAt(Yamls.load(eksctlYaml), "managedNodeGroups")) {
            Map<String, Object> group = Yamls.map(node);
            String pool = Yamls.strings(group.get("labels")).get(POOL_LABEL);
            if (pool == null) {
                continue;
            }
            Set<String> taints = new TreeSet<>();
            for (Object taint : Yamls.list(group.get("taints"))) {
                Map<String, Object> t = Yamls.map(taint);
                taints.add(t.get("key") + "=" + t.get("value") + ":" + t.get("effect"));
            }
            pools.put(pool, taints);
        }
        return pools;
    }

    static Map<String, Set<String>> scriptSecrets(Path scripts) {
        Map<String, Set<String>> secrets = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(scripts)) {
            for (Path script : files.filter(p -> p.toString().endsWith(".sh")).toList()) {
                // A command continued over several lines ("\" at the end of a line) is read as one line.
                Matcher matcher = CREATE_SECRET.matcher(Repo.read(script).replace("\\\n", " "));
                while (matcher.find()) {
                    Matcher key = LITERAL_KEY.matcher(matcher.group(2));
                    while (key.find()) {
                        secrets.computeIfAbsent(matcher.group(1), k -> new TreeSet<>())
                                .add(key.group(1));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return secrets;
    }

    static Set<String> adapterMetrics(String valuesYaml) {
        Set<String> metrics = new TreeSet<>();
        for (Object node : Yamls.listAt(Yamls.load(valuesYaml), "rules.custom")) {
            Map<String, Object> rule = Yamls.map(node);
            String as = Yamls.text(rule, "name.as");
            if (as != null) {
                metrics.add(as);
            } else {
                String series = String.valueOf(rule.get("seriesQuery"));
                metrics.add(series.replaceAll("[{].*$", "").trim());
            }
        }
        return metrics;
    }

    /** Every object a deployment applies: an overlay, the cluster-wide objects and the perf Jobs. */
    static Manifests deployment(String overlay) {
        List<Map<String, Object>> objects =
                new java.util.ArrayList<>(Kustomize.render(Repo.path(AWS_DIR + "/overlays/" + overlay)));
        objects.addAll(Yamls.loadAll(Repo.read(AWS_DIR + "/cluster/storage-class.yaml")));
        objects.addAll(Kustomize.render(Repo.path(AWS_DIR + "/perf")));
        return new Manifests(objects);
    }
}
