package io.tributary.deploy.support;

import java.util.regex.Pattern;

/**
 * Which settings hold a secret: passwords, tokens, shared secrets and Kafka JAAS configurations (which carry a
 * password). A tracked deployment file must never give one of them a value; it names where the value comes from (a
 * Kubernetes Secret, an untracked file a script generates).
 */
public final class SecretNames {

    private static final Pattern SECRET = Pattern.compile(".*(PASSWORD|SECRET|JAAS_CONFIG).*|.*TOKEN");

    private SecretNames() {}

    public static boolean isSecret(String variable) {
        return SECRET.matcher(variable.toUpperCase(java.util.Locale.ROOT)).matches();
    }
}
