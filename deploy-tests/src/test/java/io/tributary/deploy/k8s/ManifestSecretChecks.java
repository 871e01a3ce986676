package io.tributary.deploy.k8s;

import io.tributary.deploy.support.SecretNames;
import io.tributary.deploy.support.UrlPasswords;
import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * No secret in the tracked Kubernetes files (kustomize tree, Helm chart): no Secret with data written in them, no
 * ConfigMap entry
 * and no container env value for a secret setting, no URL with a password written out ({@link UrlPasswords}). Secrets come from Secrets created outside git (scripts/install.sh
 * or the operator), referenced by name.
 */
final class ManifestSecretChecks {

    private ManifestSecretChecks() {}

    /** Every Secret with data is reported: for manifests that are the tracked files themselves (kustomize). */
    static List<String> check(Manifests manifests) {
        return check(manifests, manifests);
    }

    /**
     * A Secret's data that is the same in a second, independent rendering of the same files is written in them (a
     * shipped key, token or password) and reported; data that differs was generated at render time (the chart's
     * {@code genCA}/{@code genSignedCert} TLS Secret, new in every rendering and kept in the cluster by upgrades),
     * which no tracked file holds. Kustomize generates nothing, so there any data is reported.
     */
    static List<String> check(Manifests manifests, Manifests renderedAgain) {
        List<String> findings = new ArrayList<>();
        for (Map<String, Object> secret : manifests.ofKind("Secret")) {
            Map<String, Object> again =
                    renderedAgain.find("Secret", Manifests.name(secret)).orElse(Map.of());
            List<String> written = new ArrayList<>();
            for (String field : List.of("data", "stringData")) {
                Map<String, Object> otherData = Yamls.map(again.get(field));
                Yamls.map(secret.get(field)).forEach((key, value) -> {
                    if (value != null && value.equals(otherData.get(key))) {
                        written.add(key);
                    }
                });
            }
            if (!written.isEmpty()) {
                findings.add(Manifests.id(secret) + ": a tracked manifest holds secret data " + written);
            }
        }
        for (Map<String, Object> configMap : manifests.ofKind("ConfigMap")) {
            Yamls.strings(configMap.get("data")).forEach((key, value) -> {
                if (SecretNames.holdsSecret(key, value)) {
                    findings.add(Manifests.id(configMap) + ": holds the secret " + key);
                }
                if (UrlPasswords.hasLiteralPassword(value)) {
                    findings.add(Manifests.id(configMap) + ": " + key + " carries a password in its URL");
                }
            });
        }
        for (Map<String, Object> workload : manifests.workloads()) {
            for (Map<String, Object> container : Manifests.containers(workload)) {
                for (Object node : Yamls.list(container.get("env"))) {
                    String name = Yamls.text(node, "name");
                    if (UrlPasswords.hasLiteralPassword(Yamls.text(node, "value"))) {
                        findings.add(Manifests.id(workload) + " container " + container.get("name") + ": " + name
                                + " carries a password in its URL");
                    }
                    Object value = Yamls.at(node, "value");
                    if (name == null
                            || !SecretNames.isSecret(name)
                            || (value != null && !SecretNames.holdsSecret(name, String.valueOf(value)))) {
                        continue;
                    }
                    if ((value != null && !String.valueOf(value).isEmpty())
                            || Yamls.at(node, "valueFrom.secretKeyRef") == null) {
                        findings.add(Manifests.id(workload) + " container " + container.get("name") + ": " + name
                                + " is not read from a Secret (secretKeyRef)");
                    }
                }
            }
        }
        return findings;
    }
}
