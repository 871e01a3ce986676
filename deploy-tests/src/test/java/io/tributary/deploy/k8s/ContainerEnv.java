package io.tributary.deploy.k8s;

import io.tributary.deploy.support.Yamls;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The environment a container gets: envFrom (ConfigMaps, Secrets) overridden by env (values, downward API,
 * ConfigMap and Secret keys). Unresolvable references become findings.
 *
 * @param values every variable: its literal value, or a description of where it comes from (never a secret)
 * @param literal whether the variable has a literal value (from env value or a ConfigMap)
 */
record ContainerEnv(Map<String, String> values, Map<String, Boolean> literal) {

    /** Secrets the scripts create (name -> keys), for references to secrets that are never in git. */
    static ContainerEnv of(
            Map<String, Object> container,
            Manifests manifests,
            Map<String, Set<String>> scriptSecrets,
            String where,
            List<String> findings) {
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, Boolean> literal = new LinkedHashMap<>();
        for (Object node : Yamls.list(container.get("envFrom"))) {
            Map<String, Object> from = Yamls.map(node);
            String configMap = Yamls.text(from, "configMapRef.name");
            String secret = Yamls.text(from, "secretRef.name");
            if (configMap != null) {
                Map<String, String> data = manifests.configMapData(configMap);
                if (data == null) {
                    // optional: true (the in-cluster Kafka's login, made only with that Kafka): no variables.
                    if (!Boolean.TRUE.equals(Yamls.at(from, "configMapRef.optional"))) {
                        findings.add(where + ": envFrom ConfigMap " + configMap + " does not exist");
                    }
                    continue;
                }
                data.forEach((k, v) -> {
                    values.put(k, v);
                    literal.put(k, true);
                });
            } else if (secret != null) {
                Set<String> keys = secretKeys(secret, manifests, scriptSecrets);
                if (keys == null) {
                    findings.add(where + ": envFrom Secret " + secret + " is neither rendered nor created by a script");
                    continue;
                }
                keys.forEach(k -> {
                    values.put(k, "secret " + secret + "/" + k);
                    literal.put(k, false);
                });
            }
        }
        for (Object node : Yamls.list(container.get("env"))) {
            Map<String, Object> env = Yamls.map(node);
            String name = String.valueOf(env.get("name"));
            if (env.containsKey("value")) {
                values.put(name, String.valueOf(env.get("value")));
                literal.put(name, true);
                continue;
            }
            String field = Yamls.text(env, "valueFrom.fieldRef.fieldPath");
            String configMap = Yamls.text(env, "valueFrom.configMapKeyRef.name");
            String secret = Yamls.text(env, "valueFrom.secretKeyRef.name");
            if (field != null) {
                values.put(name, "fieldRef " + field);
                literal.put(name, false);
            } else if (configMap != null) {
                String key = Yamls.text(env, "valueFrom.configMapKeyRef.key");
                Map<String, String> data = manifests.configMapData(configMap);
                if (data == null || !data.containsKey(key)) {
                    findings.add(where + ": " + name + " refers to missing ConfigMap key " + configMap + "/" + key);
                } else {
                    values.put(name, data.get(key));
                    literal.put(name, true);
                }
            } else if (secret != null) {
                String key = Yamls.text(env, "valueFrom.secretKeyRef.key");
                Set<String> keys = secretKeys(secret, manifests, scriptSecrets);
                if (keys == null || !keys.contains(key)) {
                    findings.add(where + ": " + name + " refers to Secret key " + secret + "/" + key
                            + ", which neither the manifests nor the scripts create");
                }
                values.put(name, "secret " + secret + "/" + key);
                literal.put(name, false);
            } else {
                values.put(name, "");
                literal.put(name, true);
            }
        }
        return new ContainerEnv(values, literal);
    }

    private static Set<String> secretKeys(String name, Manifests manifests, Map<String, Set<String>> scriptSecrets) {
        return manifests
                .find("Secret", name)
                .map(s -> Yamls.map(s.get("data")).keySet())
                .orElse(scriptSecrets.get(name));
    }

    /**
     * Where each secret variable comes from ({@code secret NAME/KEY}), a literal {@code ${NAME}} (Spring resolves it)
     * taking NAME's: {@link io.tributary.deploy.support.InternalTokenRules#resolve}.
     */
    Map<String, String> secretSources() {
        return io.tributary.deploy.support.InternalTokenRules.resolve(values, variable -> {
            String value = values.get(variable);
            return !Boolean.TRUE.equals(literal.get(variable)) && value != null && value.startsWith("secret ")
                    ? value
                    : null;
        });
    }

    /** The literal value of a variable, or null when it is absent or comes from elsewhere. */
    String literalValue(String name) {
        return Boolean.TRUE.equals(literal.get(name)) ? values.get(name) : null;
    }
}
