package io.tributary.transport.publish;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttReasonCodes;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.tributary.sessionqueue.InboundQos2Store;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.InboundAcks;
import io.tributary.transport.connection.ProblemInformation;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.qos2.ExactlyOnceQos2;
import io.tributary.transport.qos2.Qos2Markers;
import java.util.concurrent.CompletionStage;

/**
 * The acknowledgement side of inbound QoS 1/2 once Kafka has answered: PUBACK / PUBREC in arrival order, and the
 * QoS 2 release (PUBREL, PUBCOMP). For a persistent session the packet ids answered with PUBREC are also kept in
 * {@link InboundQos2Store} (Redis), written before PUBREC and removed before PUBCOMP, so a client that reconnects to
 * any node and re-sends is acknowledged, not stored again (MQTT 4.3.3). With {@link ExactlyOnceQos2} on, PUBREL also
 * tombstones the session's marker in the next Kafka transaction, without waiting. Runs on the event loop.
 */
final class InboundQos2Exchange {

    private final Disconnector disconnector;
    private final TransportMetrics metrics;
    /** Null: de-duplication per connection only (unit tests without Redis). */
    private final InboundQos2Store qos2Store;
    /** Null: QoS 2 is de-duplicated through Redis only (docs/guarantees.md). */
    private final ExactlyOnceQos2 exactlyOnce;

    InboundQos2Exchange(InboundPublishServices services) {
        this.disconnector = services.disconnector();
        this.metrics = services.metrics();
        this.qos2Store = services.qos2Store();
        this.exactlyOnce = services.exactlyOnce();
    }

    /**
     * Kafka answered for the records of one QoS 1/2 PUBLISH: acknowledged in its slot, or, when Kafka refused, the
     * connection is closed unacknowledged so the client re-sends it (MQTT 4.4).
     */
    void settle(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            InboundAcks.Slot slot,
            int packetId,
            int qos,
            Exception failure) {
        if (failure == null && qos == 2 && persistent(connection)) {
            // Recorded even when the connection is gone meanwhile: the client may re-send it to another node.
            // Without the record a re-send after a reconnect would be stored twice: no PUBREC.
            afterRedis(
                    ctx,
                    qos2Store.recordInboundQos2(connection.clientId(), packetId),
                    "QoS 2 packet id " + packetId,
                    () -> connection.inbound().acknowledge(slot));
        } else if (failure == null) {
            connection.inbound().acknowledge(slot);
        } else {
            if (qos == 2) {
                connection.inbound().releaseQos2(packetId);
            }
            disconnector.disconnect(
                    ctx.channel(),
                    Disconnect.UNSPECIFIED_ERROR,
                    null,
                    "Kafka did not store a QoS " + qos + " publish, not acknowledged: " + failure.getMessage());
        }
    }

    void onPubRel(ChannelHandlerContext ctx, ClientConnection connection, int packetId) {
        if (connection.inbound().awaitingRelease(packetId) && exactlyOnce(connection)) {
            exactlyOnce.release(
                    Qos2Markers.key(connection.clientId(), connection.inbound().qos2Incarnation(), packetId));
        }
        releaseInRedis(ctx, connection, packetId);
    }

    private void releaseInRedis(ChannelHandlerContext ctx, ClientConnection connection, int packetId) {
        if (connection.inbound().awaitingRelease(packetId) && persistent(connection)) {
            // Forgotten in Redis before PUBCOMP: once the client has PUBCOMP it may reuse the id for a new message.
            // On failure the client re-sends PUBREL after reconnecting, and gets its PUBCOMP then.
            afterRedis(
                    ctx,
                    qos2Store.releaseInboundQos2(connection.clientId(), packetId),
                    "PUBREL " + packetId,
                    () -> pubComp(ctx, connection, packetId));
            return;
        }
        pubComp(ctx, connection, packetId);
    }

    /**
     * Runs {@code then} on the connection's event loop once the Redis write completed; if it failed, the connection
     * is closed unanswered (the client re-sends what was not acknowledged).
     */
    private void afterRedis(ChannelHandlerContext ctx, CompletionStage<?> write, String what, Runnable then) {
        write.whenComplete((result, error) -> ctx.executor().execute(() -> {
            if (error != null) {
                metrics.sessionQueueFailure();
                disconnector.disconnect(
                        ctx.channel(), Disconnect.UNSPECIFIED_ERROR, null, what + " could not be recorded: " + error);
                return;
            }
            then.run();
        }));
    }

    private void pubComp(ChannelHandlerContext ctx, ClientConnection connection, int packetId) {
        boolean known = connection.inbound().releaseQos2(packetId);
        byte code =
                known || !connection.isMqtt5() ? 0 : MqttReasonCodes.PubComp.PACKET_IDENTIFIER_NOT_FOUND.byteValue();
        ctx.writeAndFlush(InboundAcks.reply(
                MqttMessageType.PUBCOMP,
                packetId,
                code,
                ProblemInformation.forAck(connection, known ? null : "no QoS 2 publish with packet id " + packetId),
                connection.isMqtt5()));
    }

    /** Exactly-once into Kafka applies to persistent sessions whose incarnation was read at CONNECT. */
    boolean exactlyOnce(ClientConnection connection) {
        return exactlyOnce != null
                && persistent(connection)
                && connection.inbound().qos2Incarnation() != null;
    }

    /** A session that outlives its connection keeps its QoS 2 packet ids in the store too. */
    private boolean persistent(ClientConnection connection) {
        return qos2Store != null && connection.queueBacked();
    }
}
