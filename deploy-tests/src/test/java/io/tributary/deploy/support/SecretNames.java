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

    /** A value that only names another variable, which Spring puts in at start-up: {@code ${NAME}}. */
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{[A-Z0-9_]+}");

    /**
     * Whether a tracked file giving {@code variable} this value writes a secret out: any non-empty value of a secret
     * setting, except one that only names a variable ({@code ${NAME}}: a transport node's
     * {@code TRIBUTARY_INTERNAL_TOKEN} naming its generated {@code TRIBUTARY_INTERNAL_TRANSPORT_TOKEN}) and a JAAS
     * configuration whose password only names a variable ({@code password="${NAME}"}), both resolved by Spring from a
     * generated secret. Where NAME comes from is checked by the rules of each secret (InternalTokenRules, ...).
     */
    public static boolean holdsSecret(String variable, String value) {
        if (!isSecret(variable)
                || value == null
                || value.isEmpty()
                || REFERENCE.matcher(value).matches()) {
            return false;
        }
        return !(variable.toUpperCase(java.util.Locale.ROOT).endsWith("JAAS_CONFIG")
                && JaasLines.passwordVariable(value).isPresent());
    }
}
