package io.tributary.deploy.k8s;

import io.tributary.deploy.k8s.ServiceChecks.Pod;
import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.support.UrlPasswords;
import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The in-cluster Redis answers only with its password (issue 34, "Redis without a password"): it starts with
 * {@code requirepass} from {@code REDIS_PASSWORD}, read from a Secret; its readiness probe authenticates (a bare
 * {@code redis-cli ping} exits 0 on NOAUTH too); and every service's {@code REDIS_URL} names
 * {@code REDIS_PASSWORD}, which the service reads from the same Secret key. Without an in-cluster Redis (managed
 * stores) a URL naming the password must still find it in a Secret.
 */
final class RedisAuthChecks {

    private static final String PASSWORD = "REDIS_PASSWORD";

    private final List<String> findings = new ArrayList<>();

    private RedisAuthChecks() {}

    static List<String> check(Manifests manifests, List<Pod> pods) {
        RedisAuthChecks checks = new RedisAuthChecks();
        Optional<String> redisSecret = Optional.empty();
        boolean inCluster = false;
        for (Map<String, Object> workload : manifests.workloads()) {
            for (Map<String, Object> container : Manifests.containers(workload)) {
                if (ServiceCatalog.repositoryOf(String.valueOf(container.get("image")))
                        .equals("redis")) {
                    inCluster = true;
                    redisSecret = checks.redis(Manifests.id(workload), container);
                }
            }
        }
        for (Pod pod : pods) {
            if (pod.service().reads("REDIS_URL")) {
                checks.service(pod, inCluster, redisSecret);
            }
        }
        return checks.findings;
    }

    /** Returns the Secret key the Redis password comes from ({@code name/key}). */
    private Optional<String> redis(String where, Map<String, Object> container) {
        String command = String.join(" ", strings(container.get("command"))) + " "
                + String.join(" ", strings(container.get("args")));
        if (!command.contains("requirepass") || !command.contains("$REDIS_PASSWORD")) {
            findings.add(where + ": Redis starts without requirepass \"$REDIS_PASSWORD\" (" + command.trim()
                    + "): every pod that reaches it could read and change presence and the session queues");
        }
        String probe = String.join(" ", strings(Yamls.at(container, "readinessProbe.exec.command")));
        if (!probe.contains("REDISCLI_AUTH") || !probe.contains("PONG")) {
            findings.add(where + ": the readiness probe '" + probe + "' does not authenticate and expect PONG");
        }
        Optional<String> secret = secretKey(container, PASSWORD);
        if (secret.isEmpty()) {
            findings.add(where + ": " + PASSWORD + " is not read from a Secret (secretKeyRef)");
        }
        return secret;
    }

    private void service(Pod pod, boolean inCluster, Optional<String> redisSecret) {
        String url = pod.env().values().getOrDefault("REDIS_URL", "");
        Optional<String> named = UrlPasswords.passwordVariable(url);
        if (inCluster && !named.equals(Optional.of(PASSWORD))) {
            findings.add(pod.where() + ": REDIS_URL " + url + " does not carry the in-cluster Redis's password"
                    + " (redis://:${REDIS_PASSWORD}@...), so Redis refuses it");
        }
        if (named.isEmpty()) {
            return;
        }
        Optional<String> secret = secretKey(pod.container(), named.get());
        if (secret.isEmpty()) {
            findings.add(pod.where() + ": REDIS_URL names " + named.get() + ", which is not read from a Secret");
        } else if (inCluster && redisSecret.isPresent() && !secret.equals(redisSecret)) {
            findings.add(pod.where() + ": " + named.get() + " comes from " + secret.get() + ", Redis's from "
                    + redisSecret.get());
        }
    }

    /** {@code name/key} of the Secret the container's {@code variable} comes from. */
    private static Optional<String> secretKey(Map<String, Object> container, String variable) {
        for (Object node : Yamls.list(container.get("env"))) {
            if (variable.equals(Yamls.text(node, "name"))) {
                String name = Yamls.text(node, "valueFrom.secretKeyRef.name");
                String key = Yamls.text(node, "valueFrom.secretKeyRef.key");
                return name == null ? Optional.empty() : Optional.of(name + "/" + key);
            }
        }
        return Optional.empty();
    }

    private static List<String> strings(Object node) {
        return Yamls.list(node).stream().map(String::valueOf).toList();
    }
}
