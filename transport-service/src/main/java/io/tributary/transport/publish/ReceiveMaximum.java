package io.tributary.transport.publish;

import io.tributary.transport.connection.ClientConnection;

/**
 * The Receive Maximum we announce in CONNACK (MQTT 5 section 3.2.2.3.3, {@code MQTT_RECEIVE_MAXIMUM}) and hold every
 * client to (section 4.9): a QoS 1 publish counts until its PUBACK is sent, a QoS 2 publish until its PUBCOMP (or a
 * PUBREC with a failure code). A client with that many open and sending one more new QoS 1/2 PUBLISH gets
 * DISCONNECT 0x93 Receive Maximum exceeded; an MQTT 3.x client, which has no such limit in its protocol, is closed
 * (as any 3.x protocol violation), so one connection cannot make the node keep unbounded QoS 2 state.
 */
public final class ReceiveMaximum {

    private ReceiveMaximum() {
    }

    /**
     * Open inbound QoS 1/2 exchanges: QoS 1 waiting for PUBACK, and QoS 2 packet ids between PUBLISH and PUBREL
     * (those also waiting for Kafka are among them). QoS 2 publishes refused without an id kept (MQTT 5 0x87, 0x97)
     * are only counted while their PUBREC waits behind earlier ones, which is momentary, so they are left out.
     */
    public static int open(ClientConnection connection) {
        return connection.inboundAcks().pendingQos1() + connection.inboundQos2().size();
    }

    /** Whether this PUBLISH would exceed {@code receiveMaximum}; a re-sent QoS 2 publish opens nothing new. */
    public static boolean exceededBy(ClientConnection connection, int qos, int packetId, int receiveMaximum) {
        if (qos == 0 || (qos == 2 && connection.inboundQos2().contains(packetId))) {
            return false;
        }
        return open(connection) >= receiveMaximum;
    }
}
