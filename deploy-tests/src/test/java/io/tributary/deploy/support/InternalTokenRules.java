package io.tributary.deploy.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One internal API token per calling role (issue 34, "one token for every caller"), the same rules for the compose
 * stack, the Helm chart and kustomize: session-service gets both roles' tokens, each from a secret and not the same
 * one; a transport node presents, as its {@code TRIBUTARY_INTERNAL_TOKEN}, the very secret session-service knows as the
 * transport nodes' token, a router the routing nodes' one; and no transport node or router holds the other role's
 * token under any name (it could then make that role's calls). Each method returns findings.
 */
public final class InternalTokenRules {

    /** What a transport node or a router presents. */
    public static final String NODE_VARIABLE = "TRIBUTARY_INTERNAL_TOKEN";
    /** session-service's variable for each calling role's token, by the caller's module. */
    public static final Map<String, String> SESSION_VARIABLES = Map.of(
            "transport-service", "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN",
            "routing-service", "TRIBUTARY_INTERNAL_ROUTING_TOKEN");

    private static final String SESSION = "session-service";
    private static final Map<String, String> ROLES =
            Map.of("transport-service", "the transport nodes'", "routing-service", "the routing nodes'");
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z0-9_.]+)}");

    /**
     * One Tributary container and its secrets.
     *
     * @param where   how findings name it
     * @param module  transport-service, routing-service or session-service
     * @param sources variable -> where its secret value comes from (a Secret key, a generated env file's entry),
     *                for the variables whose value comes from a secret; a value that only names another variable
     *                ({@code ${NAME}}, resolved by Spring) has that variable's source ({@link #resolve})
     */
    public record Holder(String where, String module, Map<String, String> sources) {}

    private InternalTokenRules() {}

    /**
     * The secret sources of an environment: {@code fromSecret} gives a variable's source or null; a variable whose
     * value is just {@code ${NAME}} gets NAME's.
     */
    public static Map<String, String> resolve(
            Map<String, String> values, java.util.function.Function<String, String> fromSecret) {
        Map<String, String> sources = new LinkedHashMap<>();
        values.forEach((variable, value) -> {
            String source = fromSecret.apply(variable);
            Matcher reference = REFERENCE.matcher(value == null ? "" : value);
            if (source == null && reference.matches()) {
                source = fromSecret.apply(reference.group(1));
            }
            if (source != null) {
                sources.put(variable, source);
            }
        });
        return sources;
    }

    public static List<String> check(List<Holder> holders) {
        List<String> findings = new ArrayList<>();
        Map<String, String> roleSources = new LinkedHashMap<>();
        for (Holder session : holders) {
            if (!session.module().equals(SESSION)) {
                continue;
            }
            for (Map.Entry<String, String> role : SESSION_VARIABLES.entrySet()) {
                String source = session.sources().get(role.getValue());
                if (source == null) {
                    findings.add(session.where() + ": " + role.getValue() + " (" + ROLES.get(role.getKey())
                            + " internal token) does not come from a secret");
                    continue;
                }
                String known = roleSources.putIfAbsent(role.getKey(), source);
                if (known != null && !known.equals(source)) {
                    findings.add(session.where() + ": " + role.getValue() + " comes from " + source
                            + ", another session-service's from " + known);
                }
            }
            String transport = session.sources().get(SESSION_VARIABLES.get("transport-service"));
            if (transport != null
                    && transport.equals(session.sources().get(SESSION_VARIABLES.get("routing-service")))) {
                findings.add(session.where() + ": " + SESSION_VARIABLES.get("transport-service") + " and "
                        + SESSION_VARIABLES.get("routing-service") + " come from the same secret " + transport
                        + ": one token for both roles, so a router could make the transport nodes' calls");
            }
        }
        for (Holder node : holders) {
            if (!ROLES.containsKey(node.module())) {
                continue;
            }
            String own = roleSources.get(node.module());
            String presented = node.sources().get(NODE_VARIABLE);
            if (presented == null) {
                findings.add(node.where() + ": " + NODE_VARIABLE + " does not come from a secret");
            } else if (own != null && !presented.equals(own)) {
                findings.add(node.where() + ": " + NODE_VARIABLE + " comes from " + presented + ", not from "
                        + ROLES.get(node.module()) + " token " + own + " (session-service's "
                        + SESSION_VARIABLES.get(node.module()) + ")");
            }
            roleSources.forEach((module, source) -> {
                if (module.equals(node.module())) {
                    return;
                }
                node.sources().forEach((variable, held) -> {
                    if (Objects.equals(held, source)) {
                        findings.add(node.where() + ": holds " + ROLES.get(module) + " internal token (" + source
                                + ", as " + variable + "): each node may hold its own role's token only");
                    }
                });
            });
        }
        return findings;
    }
}
