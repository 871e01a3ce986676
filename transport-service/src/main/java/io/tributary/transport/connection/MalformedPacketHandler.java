package io.tributary.transport.connection;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.netty.util.ReferenceCountUtil;

/**
 * Packets the decoder could not decode after CONNECT (the decoder turns errors into values and then discards the
 * rest of the stream). Maps the cause to the MQTT 5 reason code and ends the connection.
 */
@ChannelHandler.Sharable
public final class MalformedPacketHandler extends ChannelInboundHandlerAdapter {

    private final Disconnector disconnector;
    private final int maxPacketSize;

    public MalformedPacketHandler(Disconnector disconnector, int maxPacketSize) {
        this.disconnector = disconnector;
        this.maxPacketSize = maxPacketSize;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof MqttMessage m && m.decoderResult().isFailure()) {
            ReferenceCountUtil.release(msg);
            Throwable cause = m.decoderResult().cause();
            String text = String.valueOf(cause.getMessage());
            if (cause instanceof PacketFrameCheck.DuplicatePropertyException) {
                disconnector.disconnect(ctx.channel(), Disconnect.PROTOCOL_ERROR, "protocol_error", text);
            } else if (cause instanceof TooLongFrameException) {
                disconnector.disconnect(
                        ctx.channel(),
                        Disconnect.PACKET_TOO_LARGE,
                        "packet_too_large",
                        "packet larger than " + maxPacketSize + " bytes");
            } else if (text.startsWith("invalid publish topic name")) {
                disconnector.disconnect(ctx.channel(), Disconnect.TOPIC_NAME_INVALID, "invalid_topic", text);
            } else {
                disconnector.disconnect(
                        ctx.channel(), Disconnect.MALFORMED_PACKET, "malformed_packet", "malformed packet: " + text);
            }
            return;
        }
        ctx.fireChannelRead(msg);
    }
}
