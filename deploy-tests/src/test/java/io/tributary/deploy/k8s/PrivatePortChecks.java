package io.tributary.deploy.k8s;

import io.tributary.deploy.k8s.ServiceChecks.Pod;
import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * issue 34, "One port for everything": the ports only the deployment itself may reach stay off the Services. A pod's
 * management port (the unauthenticated actuator) is on no Service at all: the kubelet probes, the NLB's health
 * checks and Prometheus go to the pods. session-service's internal API port is only on a Service of its own
 * (ClusterIP, nothing else on it), so the Service that exposes the admin API never carries it and a NetworkPolicy
 * can keep it for the transport and routing pods.
 */
final class PrivatePortChecks {

    private PrivatePortChecks() {}

    static List<String> check(Manifests manifests, List<Pod> pods) {
        List<String> findings = new ArrayList<>();
        for (Map<String, Object> service : manifests.ofKind("Service")) {
            Map<String, String> selector = Yamls.strings(Yamls.at(service, "spec.selector"));
            List<Object> ports = Yamls.listAt(service, "spec.ports");
            String type = String.valueOf(Yamls.at(service, "spec.type"));
            for (Pod pod : pods) {
                if (selector.isEmpty() || !Manifests.selects(selector, Manifests.podLabels(pod.workload()))) {
                    continue;
                }
                Map<String, String> env = ServiceChecks.literals(pod);
                int management = pod.service().managementPort(env);
                OptionalInt internal = pod.service().internalApiPort(env);
                for (Object port : ports) {
                    Object target = Yamls.at(port, "targetPort") != null
                            ? Yamls.at(port, "targetPort")
                            : Yamls.at(port, "port");
                    Integer reached = Manifests.containerPort(pod.container(), target);
                    if (reached == null) {
                        continue;
                    }
                    String where = Manifests.id(service) + ": port " + Yamls.at(port, "port") + " leads to ";
                    if (reached == management) {
                        findings.add(where + "the management port " + management + " of " + pod.where()
                                + " (the actuator answers anybody): probes and Prometheus reach the pods directly");
                    } else if (internal.isPresent() && reached == internal.getAsInt()) {
                        if (ports.size() > 1 || type.equals("LoadBalancer") || type.equals("NodePort")) {
                            findings.add(where + "the internal API port " + reached + " of " + pod.where()
                                    + ": only a ClusterIP Service of its own may carry it");
                        }
                    }
                }
            }
        }
        return findings;
    }
}
