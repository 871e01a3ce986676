package io.tributary.transport.delivery;

import io.tributary.sessionqueue.QueueReader;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.metrics.TransportMetrics;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the acknowledgements of a persistent session's messages do to its queue in Redis: an acknowledged message
 * leaves it, a QoS 2 message is marked released before its PUBREL goes out. A failed write is counted and left to
 * the next connection, which sends the message (or the PUBREL) again: at least once holds. Every method runs on
 * the connection's event loop, and does nothing when the node serves no session queues.
 */
final class QueuedMessageSettlement {

    /** OutboundDelivery's: the queue's log lines read as before the class was split. */
    private static final Logger log = LoggerFactory.getLogger(OutboundDelivery.class);

    private final TransportMetrics metrics;
    /** Null when the node serves no session queues (unit tests of the in-memory path). */
    private final QueueReader queueStore;

    QueuedMessageSettlement(TransportMetrics metrics, QueueReader queueStore) {
        this.metrics = metrics;
        this.queueStore = queueStore;
    }

    /**
     * True when PUBREC of {@code m} must first be recorded in the queue ({@link #released}): a QoS 2 message from
     * the queue whose PUBREL has not gone out yet.
     */
    boolean recordsRelease(OutboundMessage m) {
        return m.qos() == 2 && m.fromQueue() && !m.released() && queueStore != null;
    }

    /**
     * Records that the client answered {@code m} with PUBREC; {@code then} runs on the event loop once it is
     * recorded. The message must leave the queue before PUBREL goes out: once the client has seen PUBREL it forgets
     * the packet id, and a PUBLISH re-sent after a crash would then be a second delivery. When the record fails the
     * connection is closed, so the exchange starts over at the next connection.
     */
    void released(ClientConnection connection, OutboundMessage m, int packetId, Runnable then) {
        queueStore
                .released(connection.clientId(), m.queueSeq(), packetId)
                .whenComplete((ok, error) -> connection.channel().eventLoop().execute(() -> {
                    if (error != null) {
                        metrics.sessionQueueFailure();
                        log.warn(
                                "Closing {}: its PUBREC of queued message {} could not be recorded: {}",
                                connection,
                                m.queueSeq(),
                                error.toString());
                        connection.channel().close();
                        return;
                    }
                    then.run();
                }));
    }

    /** The exchange of {@code message} is over (PUBACK, PUBCOMP, or a refusing PUBREC). */
    void settled(ClientConnection connection, OutboundMessage message, int packetId) {
        if (!message.fromQueue() || queueStore == null) {
            return;
        }
        if (message.released()) {
            queueStore.completed(connection.clientId(), packetId).whenComplete((n, error) -> {
                if (error != null) {
                    // The PUBREL is re-sent at the next connection; the client answers it with PUBCOMP again.
                    metrics.sessionQueueFailure();
                }
            });
        } else {
            acknowledged(connection, message.queueSeq());
        }
    }

    /** The exchange of a message from the session queue is over (or it will never be sent): it leaves the queue. */
    void forget(ClientConnection connection, OutboundMessage m) {
        if (m.fromQueue() && m.queueSeq() > 0 && queueStore != null) {
            log.debug("Queue of '{}': entry {} done", connection.clientId(), m.queueSeq());
            queueStore.remove(connection.clientId(), m.queueSeq()).whenComplete((n, error) -> {
                if (error != null) {
                    // It stays in the queue and is sent again (DUP = 1) at the next connection: at least once holds.
                    metrics.sessionQueueFailure();
                }
            });
        }
    }

    /**
     * A queued message was acknowledged: it leaves the queue with the others acknowledged in the same turn of the
     * event loop (acknowledgements come in bursts, one read holds many), in one XDEL. Until then it is still in the
     * queue: a node dying in between sends it again (DUP = 1), which QoS 1 allows.
     */
    private void acknowledged(ClientConnection connection, long seq) {
        if (seq <= 0 || queueStore == null) {
            return;
        }
        if (connection.outbound().queueEntryAcknowledged(seq)) {
            connection.channel().eventLoop().execute(() -> removeAcknowledged(connection));
        }
    }

    private void removeAcknowledged(ClientConnection connection) {
        List<Long> seqs = connection.outbound().takeAcknowledgedQueueEntries();
        if (seqs.isEmpty()) {
            return;
        }
        log.debug("Queue of '{}': entries {} done", connection.clientId(), seqs);
        queueStore.removeAll(connection.clientId(), seqs).whenComplete((n, error) -> {
            if (error != null) {
                // They stay in the queue and are sent again (DUP = 1) at the next connection: at least once holds.
                metrics.sessionQueueFailure();
            }
        });
    }
}
