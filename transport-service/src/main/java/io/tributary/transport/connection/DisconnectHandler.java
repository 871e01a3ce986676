package io.tributary.transport.connection;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttReasonCodeAndPropertiesVariableHeader;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DISCONNECT from the client, and AUTH (no enhanced authentication method is offered, so any AUTH is a protocol
 * error). A normal DISCONNECT discards the will unless MQTT 5 reason 0x04 asks for it; MQTT 5 may change the
 * session expiry here, except from zero (section 3.14.2.2.2).
 */
@ChannelHandler.Sharable
public final class DisconnectHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(DisconnectHandler.class);
    private static final int DISCONNECT_WITH_WILL = Disconnect.DISCONNECT_WITH_WILL_MESSAGE.byteValue();

    private final Disconnector disconnector;

    public DisconnectHandler(Disconnector disconnector) {
        this.disconnector = disconnector;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof MqttMessage m) || m.fixedHeader() == null) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (m.fixedHeader().messageType() == MqttMessageType.AUTH) {
            disconnector.disconnect(
                    ctx.channel(),
                    Disconnect.PROTOCOL_ERROR,
                    "unexpected_auth",
                    "AUTH without an authentication method");
            return;
        }
        if (m.fixedHeader().messageType() != MqttMessageType.DISCONNECT) {
            ctx.fireChannelRead(msg);
            return;
        }
        ClientConnection connection = ClientConnection.of(ctx.channel());
        int reason = 0;
        if (connection.isMqtt5() && m.variableHeader() instanceof MqttReasonCodeAndPropertiesVariableHeader v) {
            reason = v.reasonCode() & 0xFF;
            if (reason >= 0x80) {
                logClientError(ctx, connection, reason, v.properties());
            }
            MqttProperties.MqttProperty<?> expiry = v.properties().getProperty(MqttProperties.SESSION_EXPIRY_INTERVAL);
            if (expiry != null) {
                long requested = Integer.toUnsignedLong((Integer) expiry.value());
                if (connection.sessionExpirySeconds() == 0 && requested != 0) {
                    disconnector.disconnect(
                            ctx.channel(),
                            Disconnect.PROTOCOL_ERROR,
                            "expiry_from_zero",
                            "session expiry changed from 0 at DISCONNECT");
                    return;
                }
                connection.sessionExpirySeconds(requested);
            }
        }
        connection.markNormalDisconnect();
        if (reason != DISCONNECT_WITH_WILL) {
            connection.clearWill();
        }
        ctx.close();
    }

    /**
     * A client closing with an error reason says the server sent something it could not take (0x81 malformed, 0x82
     * protocol error, ...): worth one line naming the client, the code and its reason string, if any.
     */
    private static void logClientError(
            ChannelHandlerContext ctx, ClientConnection connection, int reason, MqttProperties properties) {
        MqttProperties.MqttProperty<?> text = properties.getProperty(MqttProperties.REASON_STRING);
        log.warn(
                "Client '{}' from {} disconnected with reason 0x{}{}",
                connection.clientId(),
                ClientAddress.of(ctx.channel()),
                String.format(java.util.Locale.ROOT, "%02X", reason),
                text == null ? "" : ": " + String.valueOf(text.value()).replaceAll("\\p{Cntrl}", "?"));
    }
}
