package io.tributary.transport.connection;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last handler: whatever no handler consumed is a protocol violation (a second CONNECT, a packet only a server may
 * send); a keep-alive expiry ends the connection; an exception is logged once and ends only this connection.
 */
@ChannelHandler.Sharable
public final class TerminalHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(TerminalHandler.class);

    private final Disconnector disconnector;

    public TerminalHandler(Disconnector disconnector) {
        this.disconnector = disconnector;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            MqttMessageType type = msg instanceof MqttMessage m && m.fixedHeader() != null
                    ? m.fixedHeader().messageType()
                    : null;
            String what = type == MqttMessageType.CONNECT
                    ? "second CONNECT on one connection"
                    : "unexpected " + (type == null ? msg.getClass().getSimpleName() : type) + " from a client";
            disconnector.disconnect(ctx.channel(), Disconnect.PROTOCOL_ERROR, "protocol_error", what);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            log.debug("I/O error on {}: {}", ClientAddress.of(ctx.channel()), cause.toString());
            ctx.close();
            return;
        }
        log.debug("Unexpected error on connection from {}", ClientAddress.of(ctx.channel()), cause);
        disconnector.disconnect(
                ctx.channel(), Disconnect.IMPLEMENTATION_SPECIFIC_ERROR, "internal_error", "internal error: " + cause);
    }
}
