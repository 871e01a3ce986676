package io.tributary.transport.sessionqueue;

import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.OutboundMessage;
import java.util.function.Consumer;

/**
 * What the session queue reader needs from outbound delivery (implemented by
 * {@code delivery.OutboundDelivery}). An interface because delivery settles acknowledged
 * messages in the session queue, so it depends on this package and not the other way round.
 */
public interface QueueDelivery {

    /** Told whenever a connection of a persistent session may take more from its queue. */
    void onSlotFreed(Consumer<ClientConnection> listener);

    /** How many messages the session queue may hand over to the connection now. */
    int freeSlots(ClientConnection connection);

    /** Sends a message read from the queue with the packet id its sequence gives it; the id and a slot are free. */
    void sendQueued(ClientConnection connection, OutboundMessage message, int packetId);

    /** PUBREL owed for a QoS 2 message the client acknowledged with PUBREC over an earlier connection. */
    void resendRelease(ClientConnection connection, int packetId);

    /** Delivers a message (a QoS 0 one from the queue) like any live one. */
    void deliver(ClientConnection connection, OutboundMessage message);
}
