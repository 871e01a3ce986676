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

    /**
     * Whether a tracked file giving {@code variable} this value writes a secret out: any non-empty value of a secret
     * setting, except a JAAS configuration whose password only names a variable ({@code password="${NAME}"},
     * resolved by Spring from a generated secret).
     */
    public static boolean holdsSecret(String variable, String value) {
        if (!isSecret(variable) || value == null || value.isEmpty()) {
            return false;
        }
        return !(variable.toUpperCase(java.util.Locale.ROOT).endsWith("JAAS_CONFIG")
                && JaasLines.passwordVariable(value).isPresent());
    }
}
