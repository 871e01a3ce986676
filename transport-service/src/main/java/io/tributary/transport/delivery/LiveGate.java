package io.tributary.transport.delivery;

import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.OutboundMessage;

/**
 * Sees the live deliveries of connections that replay history (see {@code replay.ReplaySeam}), on their event
 * loop, before they are written.
 */
public interface LiveGate {
    /**
     * @param partition publish partition of the message, -1 when the downlink record did not say
     * @param offset    its offset there, -1 when unknown
     * @return true when the gate took the message (held or dropped): it is not written now
     */
    boolean intercept(ClientConnection connection, OutboundMessage message, int partition, long offset);
}
