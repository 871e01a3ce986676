package io.tributary.transport.delivery;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageIdVariableHeader;
import io.netty.handler.codec.mqtt.MqttPubReplyMessageVariableHeader;
import io.tributary.transport.connection.ClientConnection;

/** PUBACK, PUBREC and PUBCOMP sent by a subscriber for messages we delivered. */
@ChannelHandler.Sharable
public final class OutboundAckHandler extends ChannelInboundHandlerAdapter {

    private final OutboundDelivery delivery;

    public OutboundAckHandler(OutboundDelivery delivery) {
        this.delivery = delivery;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof MqttMessage m) || m.fixedHeader() == null) {
            ctx.fireChannelRead(msg);
            return;
        }
        ClientConnection connection = ClientConnection.of(ctx.channel());
        switch (m.fixedHeader().messageType()) {
            case PUBACK -> delivery.onPubAck(connection, packetId(m));
            case PUBREC -> delivery.onPubRec(connection, packetId(m), reasonCode(m));
            case PUBCOMP -> delivery.onPubComp(connection, packetId(m));
            default -> ctx.fireChannelRead(msg);
        }
    }

    private static int packetId(MqttMessage m) {
        return ((MqttMessageIdVariableHeader) m.variableHeader()).messageId();
    }

    private static int reasonCode(MqttMessage m) {
        return m.variableHeader() instanceof MqttPubReplyMessageVariableHeader v ? v.reasonCode() & 0xFF : 0;
    }
}
