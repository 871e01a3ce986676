package io.tributary.transport.acl;

import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.metrics.TransportMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bookkeeping of PUBLISH and SUBSCRIBE packets refused by a connection's ACL ({@code TopicPermissions}, compiled at
 * CONNECT): every denial is counted in {@code tributary_acl_denied_total{action}}, and the first of each connection
 * is logged, so a misconfigured ACL is visible while a client that keeps trying cannot flood the log.
 */
public final class AclDenials {

    private static final Logger log = LoggerFactory.getLogger(AclDenials.class);

    private AclDenials() {}

    public static void publishDenied(TransportMetrics metrics, ClientConnection connection, String topic) {
        denied(metrics, connection, "publish", "publish to", topic);
    }

    public static void subscribeDenied(TransportMetrics metrics, ClientConnection connection, String filter) {
        denied(metrics, connection, "subscribe", "subscribe to", filter);
    }

    private static void denied(
            TransportMetrics metrics, ClientConnection connection, String action, String verb, String what) {
        metrics.aclDenied(action);
        if (connection.firstAclDenial()) {
            log.warn(
                    "Client '{}' may not {} '{}' (ACL: {}); this and later denials of the connection are counted "
                            + "in tributary_acl_denied_total",
                    connection.clientId(),
                    verb,
                    what,
                    connection.permissions());
        }
    }
}
