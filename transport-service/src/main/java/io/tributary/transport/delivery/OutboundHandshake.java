package io.tributary.transport.delivery;

import io.netty.handler.codec.mqtt.MqttReasonCodes;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.OutboundMessage;
import java.util.function.Consumer;

/**
 * The subscriber's side of the outbound QoS 1/2 exchanges: PUBACK and PUBCOMP end one, PUBREC is answered with
 * PUBREL (after it is recorded in the session queue, for a queued message). An ended exchange frees its in-flight
 * slot, and the messages waiting for one are sent ({@code settled}). Every method runs on the connection's event
 * loop.
 */
final class OutboundHandshake {

    private final QueuedMessageSettlement queue;
    private final PublishWriter writer;
    /** Told when an exchange ended: its slot is free. */
    private final Consumer<ClientConnection> slotFreed;

    OutboundHandshake(QueuedMessageSettlement queue, PublishWriter writer, Consumer<ClientConnection> slotFreed) {
        this.queue = queue;
        this.writer = writer;
        this.slotFreed = slotFreed;
    }

    /** PUBACK for an outbound QoS 1 message. */
    void onPubAck(ClientConnection connection, int packetId) {
        OutboundMessage m = connection.outbound().awaitingAck(packetId);
        if (m != null && m.qos() == 1) {
            settled(connection, packetId);
        }
    }

    /** PUBREC for an outbound QoS 2 message: answer PUBREL (also for an unknown id, with 0x92 in MQTT 5). */
    void onPubRec(ClientConnection connection, int packetId, int reasonCode) {
        OutboundMessage m = connection.outbound().awaitingAck(packetId);
        if (m != null && reasonCode >= 0x80) {
            // The subscriber refused the message: the exchange ends here (MQTT 5 section 4.3.3).
            settled(connection, packetId);
            return;
        }
        if (m != null && queue.recordsRelease(m)) {
            queue.released(connection, m, packetId, () -> {
                m.markReleased();
                writer.writeRelease(connection, packetId, (byte) 0);
            });
            return;
        }
        byte code = 0;
        if (m == null || m.qos() != 2) {
            code = MqttReasonCodes.PubRel.PACKET_IDENTIFIER_NOT_FOUND.byteValue();
        } else {
            m.markReleased();
        }
        writer.writeRelease(connection, packetId, code);
    }

    /** PUBCOMP for an outbound QoS 2 message. */
    void onPubComp(ClientConnection connection, int packetId) {
        OutboundMessage m = connection.outbound().awaitingAck(packetId);
        if (m != null && m.qos() == 2) {
            settled(connection, packetId);
        }
    }

    private void settled(ClientConnection connection, int packetId) {
        OutboundMessage message = connection.outbound().acknowledge(packetId);
        queue.settled(connection, message, packetId);
        slotFreed.accept(connection);
    }
}
