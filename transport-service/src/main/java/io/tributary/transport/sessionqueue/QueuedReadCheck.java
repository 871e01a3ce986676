package io.tributary.transport.sessionqueue;

import io.tributary.transport.acl.ReadPermission;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.metrics.TransportMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ACL check of a session queue's entries as they are handed out, after a resume above all: an entry was queued
 * under the ACL and the subscriptions the session had then, and goes out only if the connection's ACL now lets it
 * subscribe to the entry's topic ({@link ReadPermission}, the SUBSCRIBE path's decision). Any other entry is dropped
 * (removed from the queue, never delivered), counted in {@code tributary_deliveries_dropped_total{reason=
 * "queue_not_authorized"}}, and the first of each connection is logged with the client and the cause.
 */
final class QueuedReadCheck {

    static final String DROP_REASON = "queue_not_authorized";

    private static final Logger log = LoggerFactory.getLogger(QueuedReadCheck.class);

    private final TransportMetrics metrics;

    QueuedReadCheck(TransportMetrics metrics) {
        this.metrics = metrics;
    }

    /** @param topic the entry's topic as queued (internal form) */
    boolean admits(ClientConnection connection, QueueCursor cursor, long seq, String topic) {
        if (ReadPermission.mayRead(connection, topic)) {
            return true;
        }
        metrics.dropped(DROP_REASON);
        if (!cursor.readDenialLogged) {
            cursor.readDenialLogged = true;
            log.warn(
                    "Client '{}': session queue entry {} on '{}' dropped, not delivered: its ACL no longer allows "
                            + "subscribing to it (ACL: {}); this and later ones of the connection are counted in "
                            + "tributary_deliveries_dropped_total{reason=\"{}\"}",
                    connection.clientId(),
                    seq,
                    topic,
                    connection.permissions(),
                    DROP_REASON);
        }
        return false;
    }
}
