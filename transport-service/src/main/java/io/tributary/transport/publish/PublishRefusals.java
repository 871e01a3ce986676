package io.tributary.transport.publish;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.tributary.transport.acl.AclDenials;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.InboundAcks;
import io.tributary.transport.connection.ProblemInformation;
import io.tributary.transport.limits.ClientLimits;
import io.tributary.transport.metrics.TransportMetrics;

/**
 * Carries out what {@link InboundPublishRules} decided against a PUBLISH (any {@link PublishVerdict} but
 * {@link PublishVerdict.Accept}), and the refusal of one a mapping rule cannot write. Nothing refused here reaches
 * Kafka. Runs on the event loop.
 */
final class PublishRefusals {

    private final Disconnector disconnector;
    private final TransportMetrics metrics;

    PublishRefusals(InboundPublishServices services) {
        this.disconnector = services.disconnector();
        this.metrics = services.metrics();
    }

    /**
     * Carries out a verdict other than {@link PublishVerdict.Accept}.
     *
     * <p>Refusals are never produced to Kafka, and each is counted: {@code $SYS} as {@code sys_topic}; an ACL denial
     * as a publish received and denied (logged once per connection); limits by {@link ClientLimits}. QoS 0 is
     * dropped; QoS 1/2 get their PUBACK / PUBREC in arrival order, behind publishes still waiting for Kafka; a
     * PUBREC with a failure code ends the QoS 2 exchange.
     */
    void carryOut(
            ChannelHandlerContext ctx, ClientConnection connection, PublishVerdict verdict, int qos, int packetId) {
        if (verdict instanceof PublishVerdict.Disconnect d) {
            disconnector.disconnect(ctx.channel(), d.reason(), d.metricCause(), d.problem());
        } else if (verdict instanceof PublishVerdict.Resent) {
            acknowledgeAgain(ctx, connection, packetId);
        } else if (verdict instanceof PublishVerdict.Refuse r) {
            refuse(ctx, connection, r, qos, packetId);
        } else {
            throw new IllegalArgumentException("not a refusal: " + verdict);
        }
    }

    /**
     * A PUBLISH a mapping rule sends to a Kafka topic this node has no metadata for (deleted, or not described yet):
     * not produced at all, since an acknowledgement would promise the mapped copy too. QoS 0 is dropped (counted);
     * QoS 1/2 close the connection unacknowledged, as when Kafka refuses a record, so the client sends it again.
     */
    void refuseUnmappable(
            ChannelHandlerContext ctx, ClientConnection connection, String kafkaTopic, int qos, int packetId) {
        metrics.dropped("mapping_unavailable");
        if (qos == 2) {
            connection.inbound().releaseQos2(packetId);
        }
        if (qos == 0) {
            return;
        }
        disconnector.disconnect(
                ctx.channel(),
                Disconnect.UNSPECIFIED_ERROR,
                null,
                "a mapping rule writes this publish to Kafka topic '" + kafkaTopic
                        + "', which this node has no metadata for now; not acknowledged");
    }

    private void refuse(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            PublishVerdict.Refuse refusal,
            int qos,
            int packetId) {
        switch (refusal.cause()) {
            case SYS_TOPIC -> metrics.dropped("sys_topic");
            case NOT_AUTHORIZED -> {
                metrics.publishIn(qos);
                AclDenials.publishDenied(metrics, connection, refusal.topic());
                if (qos == 0) {
                    metrics.dropped("not_authorized");
                }
            }
            case OVER_LIMIT, PAYLOAD_FORMAT -> {
                // Counted as received before the limits; limits count their refusals themselves.
            }
        }
        if (qos == 0) {
            return;
        }
        if (qos == 2 && refusal.keepsQos2Id() && !connection.inbound().openQos2(packetId)) {
            acknowledgeAgain(ctx, connection, packetId);
            return;
        }
        connection
                .inbound()
                .acknowledgeInOrder(
                        packetId,
                        qos,
                        refusal.reason().byteValue(),
                        ProblemInformation.forAck(connection, refusal.problem()));
    }

    /**
     * A re-sent QoS 2 PUBLISH (MQTT 4.3.3): already taken once, so only acknowledged again; while its first copy
     * still waits for Kafka, that copy's PUBREC answers both.
     */
    private void acknowledgeAgain(ChannelHandlerContext ctx, ClientConnection connection, int packetId) {
        if (!connection.inbound().storing(packetId)) {
            ctx.writeAndFlush(InboundAcks.reply(MqttMessageType.PUBREC, packetId, (byte) 0, connection.isMqtt5()));
        }
    }
}
