package io.tributary.deploy.k8s;

import io.tributary.deploy.k8s.ServiceChecks.Pod;
import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.support.KafkaSecurityRules;
import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The in-cluster Kafka wants SASL/SCRAM and enforces ACLs (issue 34, {@link KafkaSecurityRules}): the brokers'
 * listeners, authorizer and super user, the broker principal's password from a Secret, a Job that runs
 * setup-kafka.sh (the users and ACLs), and every service's login with its password from a Secret key. Managed Kafka
 * (no apache/kafka workload) is the operator's: its credentials go in extraEnv.
 */
final class KafkaAuthChecks {

    private KafkaAuthChecks() {}

    static List<String> check(Manifests manifests, List<Pod> pods) {
        List<String> findings = new ArrayList<>();
        boolean inCluster = false;
        boolean setup = false;
        for (Map<String, Object> workload : manifests.workloads()) {
            for (Map<String, Object> container : Manifests.containers(workload)) {
                if (!ServiceCatalog.repositoryOf(String.valueOf(container.get("image")))
                        .equals("apache/kafka")) {
                    continue;
                }
                String where = Manifests.id(workload);
                String command = String.join(" ", strings(container.get("command")));
                if (command.contains("setup-kafka.sh")) {
                    setup = true;
                    continue;
                }
                inCluster = true;
                findings.addAll(KafkaSecurityRules.broker(where, literals(container)));
                if (secretKey(container, "KAFKA_ADMIN_PASSWORD") == null) {
                    findings.add(where + ": KAFKA_ADMIN_PASSWORD is not read from a Secret (secretKeyRef)");
                }
            }
        }
        if (!inCluster) {
            return findings;
        }
        if (!setup) {
            findings.add("no Job runs setup-kafka.sh: no service has its Kafka user and ACLs");
        }
        for (Pod pod : pods) {
            findings.addAll(KafkaSecurityRules.service(
                    pod.where(),
                    pod.service().module(),
                    pod.env().values(),
                    variable -> secretKey(pod.container(), variable) != null));
        }
        return findings;
    }

    /** The container's variables with a literal value. */
    private static Map<String, String> literals(Map<String, Object> container) {
        Map<String, String> values = new LinkedHashMap<>();
        for (Object node : Yamls.list(container.get("env"))) {
            Object value = Yamls.at(node, "value");
            if (value != null) {
                values.put(Yamls.text(node, "name"), String.valueOf(value));
            }
        }
        return values;
    }

    /** {@code name/key} of the Secret the container's {@code variable} comes from, or null. */
    private static String secretKey(Map<String, Object> container, String variable) {
        for (Object node : Yamls.list(container.get("env"))) {
            if (variable.equals(Yamls.text(node, "name"))) {
                String name = Yamls.text(node, "valueFrom.secretKeyRef.name");
                return name == null ? null : name + "/" + Yamls.text(node, "valueFrom.secretKeyRef.key");
            }
        }
        return null;
    }

    private static List<String> strings(Object node) {
        return Yamls.list(node).stream().map(String::valueOf).toList();
    }
}
