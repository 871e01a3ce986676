package io.tributary.deploy.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a shipped Kafka and its clients must hold (issue 34, "Kafka without authentication"), the same rules for the
 * compose stack, the Helm chart and kustomize: every listener of the broker wants SASL, KRaft's StandardAuthorizer
 * refuses what no ACL allows, the broker's own principal is the only super user, SCRAM is enabled; every service
 * logs in with SASL/SCRAM as its own user, with a password it names ({@code ${KAFKA_<USER>_PASSWORD}}) rather than
 * holds, and that user has ACLs in deploy/kafka/acls.conf. Each method returns findings.
 */
public final class KafkaSecurityRules {

    public static final String AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";
    public static final String SUPER_USER = "User:admin";
    public static final String ACL_FILE = "deploy/kafka/acls.conf";
    private static final Set<String> SASL = Set.of("SASL_PLAINTEXT", "SASL_SSL");
    private static final Set<String> SCRAM = Set.of("SCRAM-SHA-512", "SCRAM-SHA-256");

    private KafkaSecurityRules() {}

    /** The broker, from its {@code KAFKA_*} environment (the apache/kafka image's form of server.properties). */
    public static List<String> broker(String where, Map<String, String> env) {
        List<String> findings = new ArrayList<>();
        Map<String, String> protocols = protocolMap(env.getOrDefault("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP", ""));
        for (String listener : env.getOrDefault("KAFKA_LISTENERS", "").split(",")) {
            if (listener.isBlank()) {
                continue;
            }
            String name =
                    listener.substring(0, Math.max(0, listener.indexOf(':'))).strip();
            String protocol = protocols.getOrDefault(name, name);
            if (!SASL.contains(protocol)) {
                findings.add(where + ": Kafka listener " + name + " is " + protocol
                        + ", so whoever reaches it needs no credentials (use SASL_PLAINTEXT or SASL_SSL)");
            }
        }
        if (!AUTHORIZER.equals(env.get("KAFKA_AUTHORIZER_CLASS_NAME"))) {
            findings.add(where + ": Kafka has no authorizer (KAFKA_AUTHORIZER_CLASS_NAME "
                    + env.get("KAFKA_AUTHORIZER_CLASS_NAME") + ", expected " + AUTHORIZER
                    + "): any authenticated client may do anything");
        }
        if (!"false".equals(env.get("KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND"))) {
            findings.add(where + ": KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND is "
                    + env.get("KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND")
                    + ", not \"false\": a resource without ACLs would be open to every client");
        }
        if (!SUPER_USER.equals(env.get("KAFKA_SUPER_USERS"))) {
            findings.add(where + ": KAFKA_SUPER_USERS is " + env.get("KAFKA_SUPER_USERS") + ", not " + SUPER_USER
                    + " alone (the broker's own principal)");
        }
        List<String> mechanisms =
                List.of(env.getOrDefault("KAFKA_SASL_ENABLED_MECHANISMS", "").split(","));
        if (mechanisms.stream().noneMatch(SCRAM::contains)) {
            findings.add(where + ": KAFKA_SASL_ENABLED_MECHANISMS " + mechanisms + " has no SCRAM mechanism");
        }
        return findings;
    }

    /**
     * One service's Kafka login from its environment.
     *
     * @param module transport-service, routing-service or session-service: its user is the name before the dash
     * @param passwordFromSecret whether a variable comes from a generated secret (not a tracked file)
     */
    public static List<String> service(
            String where,
            String module,
            Map<String, String> env,
            java.util.function.Predicate<String> passwordFromSecret) {
        List<String> findings = new ArrayList<>();
        String user = userOf(module);
        String protocol = env.get("TRIBUTARY_KAFKA_PROPERTIES_SECURITY_PROTOCOL");
        if (!SASL.contains(String.valueOf(protocol))) {
            findings.add(where + ": TRIBUTARY_KAFKA_PROPERTIES_SECURITY_PROTOCOL is " + protocol
                    + ": the service does not log in to Kafka (SASL_PLAINTEXT or SASL_SSL)");
        }
        String mechanism = env.get("TRIBUTARY_KAFKA_PROPERTIES_SASL_MECHANISM");
        if (!SCRAM.contains(String.valueOf(mechanism))) {
            findings.add(where + ": TRIBUTARY_KAFKA_PROPERTIES_SASL_MECHANISM is " + mechanism + ", not SCRAM");
        }
        String jaas = env.get("TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG");
        String variable = "KAFKA_" + user.toUpperCase(Locale.ROOT) + "_PASSWORD";
        if (jaas == null || !JaasLines.isScram(jaas)) {
            findings.add(where + ": TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG " + jaas + " is no "
                    + JaasLines.SCRAM_MODULE + " login");
        } else {
            if (!JaasLines.user(jaas).equals(Optional.of(user))) {
                findings.add(
                        where + ": logs in to Kafka as " + JaasLines.user(jaas).orElse("nobody") + ", not as its"
                                + " own user " + user + " (each service has its own ACLs)");
            }
            if (JaasLines.hasLiteralPassword(jaas)) {
                findings.add(
                        where + ": the SCRAM password is written out in TRIBUTARY_KAFKA_PROPERTIES_SASL_JAAS_CONFIG"
                                + " (a tracked file); name it as password=\"${" + variable + "}\"");
            } else if (!JaasLines.passwordVariable(jaas).equals(Optional.of(variable))) {
                findings.add(where + ": its JAAS line names the password " + JaasLines.passwordVariable(jaas)
                        + ", not ${" + variable + "}");
            } else if (!passwordFromSecret.test(variable)) {
                findings.add(where + ": " + variable + " does not come from a generated secret");
            }
        }
        if (!aclPrincipals().contains(user)) {
            findings.add(where + ": the Kafka user " + user + " has no ACLs in " + ACL_FILE);
        }
        return findings;
    }

    /** transport-service -> transport. */
    public static String userOf(String module) {
        return module.substring(0, module.indexOf('-'));
    }

    /** The principals deploy/kafka/acls.conf grants something. */
    public static Set<String> aclPrincipals() {
        Set<String> principals = new java.util.TreeSet<>();
        for (String line : Repo.read(ACL_FILE).split("\n")) {
            String trimmed = line.strip();
            if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
                principals.add(trimmed.split("\\s+")[0]);
            }
        }
        return principals;
    }

    private static Map<String, String> protocolMap(String map) {
        Map<String, String> protocols = new LinkedHashMap<>();
        for (String entry : map.split(",")) {
            int colon = entry.indexOf(':');
            if (colon > 0) {
                protocols.put(
                        entry.substring(0, colon).strip(),
                        entry.substring(colon + 1).strip());
            }
        }
        return protocols;
    }
}
