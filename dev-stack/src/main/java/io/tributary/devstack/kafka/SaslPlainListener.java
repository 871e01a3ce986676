package io.tributary.devstack.kafka;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A second client listener of the broker, {@code SASL_PLAINTEXT} with the PLAIN mechanism and a fixed set of users:
 * for testing clients that must authenticate (the services' pass-through Kafka properties). The PLAINTEXT listener
 * stays for the broker itself and for tools.
 *
 * <p>With {@code authorizer}, as the shipped deployments' Kafka (issue 34): the listener takes SCRAM-SHA-512 too
 * (users created through the Admin API), and the broker runs KRaft's StandardAuthorizer with
 * {@code allow.everyone.if.no.acl.found=false}, so a client of this listener may do only what ACLs allow. The
 * PLAINTEXT and controller listeners' principal ({@code User:ANONYMOUS}) is the super user: it stands for the
 * deployments' broker principal (inter-broker, controller, the setup step), which tests use to create users and
 * ACLs. Deployments have no PLAINTEXT listener (deploy-tests check it).
 *
 * @param port the listener's port on 127.0.0.1
 * @param users user name to password (PLAIN)
 * @param authorizer whether ACLs are enforced and SCRAM-SHA-512 is enabled
 */
public record SaslPlainListener(int port, Map<String, String> users, boolean authorizer) {

    public static final String NAME = "SASL_PLAINTEXT";

    public SaslPlainListener {
        if (port <= 0 || users == null || users.isEmpty()) {
            throw new IllegalArgumentException("a SASL listener needs a port and at least one user");
        }
        users = Map.copyOf(users);
    }

    public SaslPlainListener(int port, Map<String, String> users) {
        this(port, users, false);
    }

    /** The broker settings this listener adds beyond its address and PLAIN users. */
    Map<String, String> authorizerProperties() {
        if (!authorizer) {
            return Map.of();
        }
        String prefix = "listener.name." + NAME.toLowerCase(java.util.Locale.ROOT) + ".";
        return Map.of(
                "sasl.enabled.mechanisms",
                "PLAIN,SCRAM-SHA-512",
                prefix + "sasl.enabled.mechanisms",
                "PLAIN,SCRAM-SHA-512",
                prefix + "scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;",
                "authorizer.class.name",
                "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "allow.everyone.if.no.acl.found",
                "false",
                "super.users",
                "User:ANONYMOUS");
    }

    /** {@code --sasl-plain-users} form: {@code user=password,user=password} (no ',' or '=' in either). */
    public String usersOption() {
        StringBuilder out = new StringBuilder();
        users.forEach((user, password) ->
                out.append(out.isEmpty() ? "" : ",").append(user).append('=').append(password));
        return out.toString();
    }

    public static Map<String, String> parseUsers(String option) {
        Map<String, String> users = new LinkedHashMap<>();
        for (String pair : option.split(",")) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("expected user=password, got " + pair);
            }
            users.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        return users;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** The broker side of PLAIN: one {@code user_<name>="<password>"} per user. */
    String jaasConfig() {
        StringBuilder jaas = new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required");
        users.forEach((user, password) -> jaas.append(" user_")
                .append(user)
                .append("=\"")
                .append(password)
                .append('"'));
        return jaas.append(';').toString();
    }
}
