package io.tributary.transport.delivery;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageIdVariableHeader;
import io.netty.handler.codec.mqtt.MqttPubReplyMessageVariableHeader;
import io.tributary.transport.backpressure.ReadGate;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.metrics.TransportMetrics;

/**
 * PUBACK, PUBREC and PUBCOMP sent by a subscriber for messages we delivered, and the socket's writability: while
 * our writes to a client pile up above the high water mark we stop reading from it (a client that does not read its
 * PUBACKs or SUBACKs must not make us buffer them without bound), and when it drains, queued messages go out.
 */
@ChannelHandler.Sharable
public final class OutboundAckHandler extends ChannelInboundHandlerAdapter {

    private final OutboundDelivery delivery;
    private final TransportMetrics metrics;

    public OutboundAckHandler(OutboundDelivery delivery, TransportMetrics metrics) {
        this.delivery = delivery;
        this.metrics = metrics;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        Channel channel = ctx.channel();
        if (!channel.isWritable()) {
            if (ReadGate.pause(channel, ReadGate.Reason.UNWRITABLE)) {
                metrics.readPaused("unwritable");
            }
        } else {
            ReadGate.resume(channel, ReadGate.Reason.UNWRITABLE);
            ClientConnection connection = ClientConnection.of(channel);
            if (connection != null) {
                delivery.onWritable(connection);
            }
        }
        ctx.fireChannelWritabilityChanged();
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
