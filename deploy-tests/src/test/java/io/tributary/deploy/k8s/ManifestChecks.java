package io.tributary.deploy.k8s;

import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The wiring between Kubernetes objects, for any workload: names and namespaces, selectors that match the pod
 * templates, Services whose target ports exist, PodDisruptionBudgets and autoscalers that target something, probes
 * on real ports, resources on every container, references to ConfigMaps, Secrets, volumes and StorageClasses that
 * exist, node selectors and tolerations that fit the eksctl node groups, fields Kubernetes wants as strings.
 * Tributary-specific rules are in {@link ServiceChecks}.
 */
final class ManifestChecks {

    private final Manifests manifests;
    private final DeployContext context;
    private final List<String> findings = new ArrayList<>();

    private ManifestChecks(Manifests manifests, DeployContext context) {
        this.manifests = manifests;
        this.context = context;
    }

    static List<String> check(Manifests manifests, DeployContext context) {
        ManifestChecks checks = new ManifestChecks(manifests, context);
        checks.identities();
        manifests.workloads().forEach(checks::workload);
        manifests.ofKind("Service").forEach(checks::service);
        manifests.ofKind("PodDisruptionBudget").forEach(checks::disruptionBudget);
        manifests.ofKind("HorizontalPodAutoscaler").forEach(checks::autoscaler);
        manifests.ofKind("NetworkPolicy").forEach(checks::networkPolicy);
        return checks.findings;
    }

    private void identities() {
        Set<String> seen = new HashSet<>();
        boolean namespaceObject = false;
        for (Map<String, Object> object : manifests.all()) {
            String id = Manifests.id(object);
            if (object.get("apiVersion") == null || object.get("kind") == null || Manifests.name(object) == null) {
                findings.add("object without apiVersion, kind or metadata.name: " + object);
                continue;
            }
            if (!seen.add(id + "@" + Yamls.text(object, "metadata.namespace"))) {
                findings.add(id + ": defined twice");
            }
            String kind = Manifests.kind(object);
            namespaceObject |= kind.equals("Namespace") && Manifests.NAMESPACE.equals(Manifests.name(object));
            String namespace = Yamls.text(object, "metadata.namespace");
            if (!Kustomize.CLUSTER_SCOPED.contains(kind) && !Manifests.NAMESPACE.equals(namespace)) {
                findings.add(id + ": in namespace " + namespace + ", not " + Manifests.NAMESPACE);
            }
            strings(id + " labels", Yamls.at(object, "metadata.labels"));
            strings(id + " annotations", Yamls.at(object, "metadata.annotations"));
            if (kind.equals("ConfigMap")) {
                strings(id + " data", object.get("data"));
            }
        }
        if (!namespaceObject) {
            findings.add("no Namespace " + Manifests.NAMESPACE);
        }
    }

    /** Kubernetes rejects numbers or booleans where it wants strings; YAML makes them easy to write by mistake. */
    private void strings(String where, Object map) {
        Yamls.map(map).forEach((key, value) -> {
            if (!(value instanceof String)) {
                findings.add(where + ": " + key + " must be a string (quote it), found " + value);
            }
        });
    }

    private void workload(Map<String, Object> workload) {
        String id = Manifests.id(workload);
        Map<String, String> labels = Manifests.podLabels(workload);
        if (labels.isEmpty()) {
            findings.add(id + ": pod template has no labels");
        }
        strings(id + " pod labels", Yamls.at(workload, "spec.template.metadata.labels"));
        strings(id + " pod annotations", Yamls.at(workload, "spec.template.metadata.annotations"));
        if (!Manifests.kind(workload).equals("Job")) {
            Map<String, String> selector = Yamls.strings(Yamls.at(workload, "spec.selector.matchLabels"));
            if (!Manifests.selects(selector, labels)) {
                findings.add(id + ": selector " + selector + " does not match its pod template labels " + labels);
            }
        }
        if (Manifests.kind(workload).equals("StatefulSet")) {
            String serviceName = Yamls.text(workload, "spec.serviceName");
            Map<String, Object> governing =
                    manifests.find("Service", String.valueOf(serviceName)).orElse(null);
            if (governing == null
                    || !"None".equals(Yamls.text(governing, "spec.clusterIP"))
                    || !Manifests.selects(Yamls.strings(Yamls.at(governing, "spec.selector")), labels)) {
                findings.add(id + ": serviceName " + serviceName + " is not a headless Service selecting its pods");
            }
        }
        Map<String, Object> pod = Manifests.podSpec(workload);
        Set<String> volumes = new TreeSet<>();
        Yamls.list(pod.get("volumes")).forEach(v -> volumes.add(Yamls.text(v, "name")));
        for (Object claim : Yamls.listAt(workload, "spec.volumeClaimTemplates")) {
            volumes.add(Yamls.text(claim, "metadata.name"));
            String storageClass = Yamls.text(claim, "spec.storageClassName");
            if (storageClass == null
                    || manifests.find("StorageClass", storageClass).isEmpty()) {
                findings.add(id + ": volume claim " + Yamls.text(claim, "metadata.name") + " names StorageClass "
                        + storageClass + ", which is not defined (new EKS clusters have no default)");
            }
        }
        for (Map<String, Object> container : Manifests.containers(workload)) {
            container(id + " container " + container.get("name"), container, volumes);
        }
        scheduling(id, pod);
    }

    private void container(String where, Map<String, Object> container, Set<String> volumes) {
        String image = String.valueOf(container.get("image"));
        String tag = ServiceCatalog.tagOf(image);
        if (tag == null || tag.equals("latest")) {
            findings.add(where + ": image " + image + " is not pinned to a version");
        }
        for (String quantity : List.of("requests.cpu", "requests.memory", "limits.cpu", "limits.memory")) {
            if (Yamls.at(container.get("resources"), quantity) == null) {
                findings.add(where + ": resources." + quantity + " missing");
            }
        }
        Set<String> portNames = new HashSet<>();
        for (Object port : Yamls.list(container.get("ports"))) {
            String name = Yamls.text(port, "name");
            if (name != null && !portNames.add(name)) {
                findings.add(where + ": port name " + name + " used twice");
            }
        }
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
            Object port = Yamls.at(container.get(probe), "httpGet.port");
            port = port != null ? port : Yamls.at(container.get(probe), "tcpSocket.port");
            if (port != null && Manifests.containerPort(container, port) == null) {
                findings.add(where + ": " + probe + " port " + port + " is no port of the container");
            }
        }
        for (Object env : Yamls.list(container.get("env"))) {
            Map<String, Object> variable = Yamls.map(env);
            if (variable.containsKey("value") && !(variable.get("value") instanceof String)) {
                findings.add(where + ": env " + variable.get("name") + " must be a string (quote it)");
            }
        }
        for (Object mount : Yamls.list(container.get("volumeMounts"))) {
            if (!volumes.contains(Yamls.text(mount, "name"))) {
                findings.add(where + ": mounts undefined volume " + Yamls.text(mount, "name"));
            }
        }
        ContainerEnv.of(container, manifests, context.scriptSecrets(), where, findings);
    }

    private void scheduling(String id, Map<String, Object> pod) {
        String pool = Yamls.strings(pod.get("nodeSelector")).get(DeployContext.POOL_LABEL);
        if (pool == null) {
            findings.add(id + ": no nodeSelector " + DeployContext.POOL_LABEL + " (which node group runs it?)");
            return;
        }
        Set<String> taints = context.pools().get(pool);
        if (taints == null) {
            findings.add(id + ": node group pool " + pool + " does not exist in cluster/eksctl.yaml "
                    + context.pools().keySet());
            return;
        }
        Set<String> tolerated = new TreeSet<>();
        for (Object node : Yamls.list(pod.get("tolerations"))) {
            Map<String, Object> t = Yamls.map(node);
            tolerated.add(t.get("key") + "=" + t.get("value") + ":" + t.get("effect"));
        }
        if (!tolerated.containsAll(taints)) {
            findings.add(id + ": runs on pool " + pool + " but does not tolerate its taints " + taints);
        }
    }

    private void service(Map<String, Object> service) {
        String id = Manifests.id(service);
        Map<String, String> selector = Yamls.strings(Yamls.at(service, "spec.selector"));
        List<Map<String, Object>> targets = manifests.workloadsSelectedBy(selector);
        if (targets.isEmpty()) {
            findings.add(id + ": selector " + selector + " matches no pods");
        }
        for (Object node : Yamls.listAt(service, "spec.ports")) {
            Object targetPort =
                    Yamls.at(node, "targetPort") != null ? Yamls.at(node, "targetPort") : Yamls.at(node, "port");
            for (Map<String, Object> workload : targets) {
                boolean found = Manifests.containers(workload).stream()
                        .anyMatch(c -> Manifests.containerPort(c, targetPort) != null);
                if (!found) {
                    findings.add(
                            id + ": targetPort " + targetPort + " is no container port of " + Manifests.id(workload));
                }
            }
        }
    }

    private void disruptionBudget(Map<String, Object> budget) {
        Map<String, String> selector = Yamls.strings(Yamls.at(budget, "spec.selector.matchLabels"));
        if (manifests.workloadsSelectedBy(selector).isEmpty()) {
            findings.add(Manifests.id(budget) + ": selector " + selector + " matches no pods");
        }
    }

    private void autoscaler(Map<String, Object> hpa) {
        String id = Manifests.id(hpa);
        String kind = Yamls.text(hpa, "spec.scaleTargetRef.kind");
        String name = Yamls.text(hpa, "spec.scaleTargetRef.name");
        if (manifests.find(String.valueOf(kind), String.valueOf(name)).isEmpty()
                || !"apps/v1".equals(Yamls.text(hpa, "spec.scaleTargetRef.apiVersion"))) {
            findings.add(id + ": scaleTargetRef " + kind + "/" + name + " does not exist");
        }
        int min = ((Number) Yamls.at(hpa, "spec.minReplicas")).intValue();
        int max = ((Number) Yamls.at(hpa, "spec.maxReplicas")).intValue();
        if (min < 1 || min > max) {
            findings.add(id + ": minReplicas " + min + " / maxReplicas " + max);
        }
        if (Yamls.listAt(hpa, "spec.metrics").isEmpty()) {
            findings.add(id + ": no metrics");
        }
    }

    /** A NetworkPolicy must protect pods that exist, on ports they have, and admit pods that exist. */
    private void networkPolicy(Map<String, Object> policy) {
        String id = Manifests.id(policy);
        List<Map<String, Object>> targets =
                manifests.workloadsSelectedBy(Yamls.strings(Yamls.at(policy, "spec.podSelector.matchLabels")));
        if (targets.isEmpty()) {
            findings.add(id + ": podSelector matches no pods");
        }
        for (Object rule : Yamls.listAt(policy, "spec.ingress")) {
            for (Object port : Yamls.list(Yamls.at(rule, "ports"))) {
                Object reference = Yamls.at(port, "port");
                for (Map<String, Object> workload : targets) {
                    if (Manifests.containers(workload).stream()
                            .noneMatch(c -> Manifests.containerPort(c, reference) != null)) {
                        findings.add(id + ": port " + reference + " is no container port of " + Manifests.id(workload));
                    }
                }
            }
            for (Object peer : Yamls.list(Yamls.at(rule, "from"))) {
                Object podSelector = Yamls.at(peer, "podSelector");
                if (podSelector != null
                        && Yamls.at(peer, "namespaceSelector") == null
                        && manifests.workloads().stream()
                                .noneMatch(w -> matches(podSelector, Manifests.podLabels(w)))) {
                    findings.add(id + ": admits pods " + podSelector + ", which match no workload");
                }
            }
        }
    }

    /** A label selector (matchLabels and In expressions) against pod labels. */
    static boolean matches(Object selector, Map<String, String> labels) {
        boolean any = false;
        for (Map.Entry<String, String> e :
                Yamls.strings(Yamls.at(selector, "matchLabels")).entrySet()) {
            any = true;
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (Object node : Yamls.list(Yamls.at(selector, "matchExpressions"))) {
            any = true;
            if (!"In".equals(Yamls.text(node, "operator"))
                    || !Yamls.list(Yamls.at(node, "values")).contains(labels.get(Yamls.text(node, "key")))) {
                return false;
            }
        }
        return any;
    }
}
