package io.tributary.transport.connection;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttQoS;

/** PINGREQ → PINGRESP. Any packet resets the keep-alive timer; this one exists only for that. */
@ChannelHandler.Sharable
public final class PingHandler extends ChannelInboundHandlerAdapter {

    private static final MqttMessage PINGRESP =
            new MqttMessage(new MqttFixedHeader(MqttMessageType.PINGRESP, false, MqttQoS.AT_MOST_ONCE, false, 0));

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof MqttMessage m && m.fixedHeader().messageType() == MqttMessageType.PINGREQ) {
            ctx.writeAndFlush(PINGRESP);
            return;
        }
        ctx.fireChannelRead(msg);
    }
}
