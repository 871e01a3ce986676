package io.tributary.transport.connect;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttIdentifierRejectedException;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttUnacceptableProtocolVersionException;
import io.tributary.transport.connection.ClientAddress;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.ProblemInformation;
import io.tributary.transport.metrics.TransportMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a CONNECT is refused: a CONNACK with the refusal's code (and, to an MQTT 5 client, the reason), then the
 * connection is closed; each refusal is counted and logged once. A first packet the decoder could not read is
 * refused as MQTT prescribes for the cause, or the connection is closed.
 */
final class ConnectRefusals {

    /** ConnectHandler's: the refusal line reads as before the handler was split. */
    private static final Logger log = LoggerFactory.getLogger(ConnectHandler.class);

    private ConnectRefusals() {}

    /** @param clientId the CONNECT's client id (empty when the client asked for one), null when not read yet */
    static void refuse(
            ChannelHandlerContext ctx,
            TransportMetrics metrics,
            String clientId,
            MqttConnectReturnCode code,
            String metricCause,
            String cause) {
        metrics.connectRefused(metricCause);
        log.warn(
                "Refusing CONNECT of {} from {}: {}",
                clientId == null ? "unidentified client" : "client '" + clientId + "'",
                ClientAddress.of(ctx.channel()),
                cause);
        MqttMessageBuilders.ConnAckBuilder ack =
                MqttMessageBuilders.connAck().returnCode(code).sessionPresent(false);
        if ((code.byteValue() & 0xFF) >= 0x80) {
            // An MQTT 5 reason code, so an MQTT 5 client: tell it why.
            ack.properties(ProblemInformation.withReason(cause));
        }
        ctx.writeAndFlush(ack.build()).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * A packet read in place of CONNECT failed to decode.
     *
     * @param clientId as for {@link #refuse}
     */
    static void refuseUndecodable(
            ChannelHandlerContext ctx,
            TransportMetrics metrics,
            Disconnector disconnector,
            String clientId,
            MqttMessage message) {
        Throwable cause = message.decoderResult().cause();
        boolean isConnect =
                message.fixedHeader() != null && message.fixedHeader().messageType() == MqttMessageType.CONNECT;
        if (isConnect && cause instanceof MqttUnacceptableProtocolVersionException) {
            // MQTT 3.1.1 section 3.1.2.2: answer 0x01 and close; old clients only understand the 3.x CONNACK.
            refuse(
                    ctx,
                    metrics,
                    clientId,
                    MqttConnectReturnCode.CONNECTION_REFUSED_UNACCEPTABLE_PROTOCOL_VERSION,
                    "unsupported_protocol",
                    "unsupported protocol: " + cause.getMessage());
        } else if (isConnect && cause instanceof MqttIdentifierRejectedException) {
            refuse(
                    ctx,
                    metrics,
                    clientId,
                    MqttConnectReturnCode.CONNECTION_REFUSED_IDENTIFIER_REJECTED,
                    "client_id_rejected",
                    "client identifier rejected: " + cause.getMessage());
        } else if (cause instanceof TooLongFrameException) {
            disconnector.close(ctx.channel(), "packet_too_large", cause.getMessage());
        } else {
            disconnector.close(
                    ctx.channel(),
                    "malformed_connect",
                    "malformed " + (isConnect ? "CONNECT" : "first packet") + ": " + cause.getMessage());
        }
    }
}
