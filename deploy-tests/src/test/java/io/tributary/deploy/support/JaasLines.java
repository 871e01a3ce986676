package io.tributary.deploy.support;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kafka client's {@code sasl.jaas.config} as the deployments give it: {@code <LoginModule> required
 * username="<user>" password="${<VARIABLE>}";}. The password must be a placeholder Spring resolves at start-up from a
 * generated secret, never written out (issue 34, SCRAM passwords in no tracked file).
 */
public final class JaasLines {

    /** The login module of SASL/SCRAM, which the deployments' Kafka wants. */
    public static final String SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";

    private static final Pattern USER = Pattern.compile("\\busername=\"([^\"]*)\"");
    private static final Pattern PASSWORD = Pattern.compile("\\bpassword=\"([^\"]*)\"");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)}");

    private JaasLines() {}

    public static Optional<String> user(String jaas) {
        Matcher m = USER.matcher(jaas == null ? "" : jaas);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** The variable the password names as {@code ${VARIABLE}}, when it is exactly one placeholder. */
    public static Optional<String> passwordVariable(String jaas) {
        Matcher m = PASSWORD.matcher(jaas == null ? "" : jaas);
        if (!m.find()) {
            return Optional.empty();
        }
        Matcher placeholder = PLACEHOLDER.matcher(m.group(1));
        return placeholder.matches() ? Optional.of(placeholder.group(1)) : Optional.empty();
    }

    /** A password written out: one that is there and is not a single placeholder. */
    public static boolean hasLiteralPassword(String jaas) {
        return jaas != null
                && PASSWORD.matcher(jaas).find()
                && passwordVariable(jaas).isEmpty();
    }

    public static boolean isScram(String jaas) {
        return jaas != null && jaas.strip().startsWith(SCRAM_MODULE + " ");
    }
}
