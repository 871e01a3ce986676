package io.tributary.deploy.k8s;

import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A rendered set of Kubernetes objects, with the lookups the checks share. */
public final class Manifests {

    static final Set<String> WORKLOADS = Set.of("Deployment", "StatefulSet", "DaemonSet", "Job");
    static final String NAMESPACE = "tributary";

    private final List<Map<String, Object>> objects;

    public Manifests(List<Map<String, Object>> objects) {
        this.objects = objects;
    }

    public List<Map<String, Object>> all() {
        return objects;
    }

    static String kind(Map<String, Object> object) {
        return String.valueOf(object.get("kind"));
    }

    static String name(Map<String, Object> object) {
        return Yamls.text(object, "metadata.name");
    }

    static String id(Map<String, Object> object) {
        return kind(object) + "/" + name(object);
    }

    List<Map<String, Object>> ofKind(String kind) {
        return objects.stream().filter(o -> kind.equals(kind(o))).toList();
    }

    Optional<Map<String, Object>> find(String kind, String name) {
        return objects.stream()
                .filter(o -> kind.equals(kind(o)) && name.equals(name(o)))
                .findFirst();
    }

    List<Map<String, Object>> workloads() {
        return objects.stream().filter(o -> WORKLOADS.contains(kind(o))).toList();
    }

    static Map<String, Object> podSpec(Map<String, Object> workload) {
        return Yamls.mapAt(workload, "spec.template.spec");
    }

    static Map<String, String> podLabels(Map<String, Object> workload) {
        return Yamls.strings(Yamls.at(workload, "spec.template.metadata.labels"));
    }

    static List<Map<String, Object>> containers(Map<String, Object> workload) {
        List<Map<String, Object>> containers = new ArrayList<>();
        Map<String, Object> spec = podSpec(workload);
        for (String field : List.of("initContainers", "containers")) {
            Yamls.list(spec.get(field)).forEach(c -> containers.add(Yamls.map(c)));
        }
        return containers;
    }

    static boolean selects(Map<String, String> selector, Map<String, String> labels) {
        return !selector.isEmpty()
                && selector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    List<Map<String, Object>> workloadsSelectedBy(Map<String, String> selector) {
        return workloads().stream().filter(w -> selects(selector, podLabels(w))).toList();
    }

    /** The port number a probe, Service or reference names in a container: a port name or a number. */
    static Integer containerPort(Map<String, Object> container, Object reference) {
        for (Object node : Yamls.list(container.get("ports"))) {
            Map<String, Object> port = Yamls.map(node);
            int number = ((Number) port.get("containerPort")).intValue();
            if (reference instanceof Number n
                    ? n.intValue() == number
                    : String.valueOf(reference).equals(port.get("name"))) {
                return number;
            }
        }
        return null;
    }

    /** The data of a ConfigMap (as rendered) or null. */
    Map<String, String> configMapData(String name) {
        return find("ConfigMap", name).map(o -> Yamls.strings(o.get("data"))).orElse(null);
    }

    /**
     * The Service a DNS name points at: {@code svc}, {@code svc.ns}, {@code svc.ns.svc[.cluster.local]}, or a pod of
     * a headless Service {@code pod.svc.ns.svc.cluster.local}. Empty for names outside the cluster.
     */
    Optional<Map<String, Object>> serviceByHost(String host) {
        String[] labels = host.split("\\.");
        int svcIndex = List.of(labels).indexOf("svc");
        String service;
        if (labels.length == 1) {
            service = labels[0];
        } else if (svcIndex >= 2) {
            service = labels[svcIndex - 2];
        } else if (labels.length == 2 && labels[1].equals(NAMESPACE)) {
            service = labels[0];
        } else {
            return Optional.empty();
        }
        return find("Service", service);
    }

    /** Whether a host name is meant to be inside the cluster (a bare name or a .svc name). */
    static boolean inCluster(String host) {
        return !host.contains(".") || host.contains(".svc");
    }
}
