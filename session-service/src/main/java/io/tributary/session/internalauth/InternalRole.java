package io.tributary.session.internalauth;

import java.util.Locale;

/**
 * Who calls session-service's internal API ({@code /internal/**}): each role has a token of its own
 * ({@link InternalTokens}), and each internal endpoint says which roles may call it ({@link InternalCallers}).
 * The granularity is the role, not the node: every transport node presents the transport nodes' token.
 */
public enum InternalRole {
    /** The transport nodes: sessions (CONNECT, SUBSCRIBE, UNSUBSCRIBE, disconnect), heartbeats, limits. */
    TRANSPORT("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN"),
    /** The routing nodes: the tenants' quotas only. */
    ROUTING("TRIBUTARY_INTERNAL_ROUTING_TOKEN");

    /** Request attribute holding the caller's role once its token was recognized. */
    public static final String ATTRIBUTE = InternalRole.class.getName();

    private final String variable;

    InternalRole(String variable) {
        this.variable = variable;
    }

    /** session-service's environment variable holding this role's token. */
    public String variable() {
        return variable;
    }

    /** {@code transport}, {@code routing}: for logs and error bodies. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
