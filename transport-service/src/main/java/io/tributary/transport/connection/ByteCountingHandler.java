package io.tributary.transport.connection;

import io.micrometer.core.instrument.Counter;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.tributary.transport.metrics.TransportMetrics;

/**
 * Counts the MQTT bytes a node reads from and writes to its clients (after TLS and WebSocket framing are removed),
 * for all connections of the node. Sharable: one instance per node, two counters registered once; each buffer only
 * adds its size, nothing is allocated per message. Written bytes are counted when handed to the socket, not when
 * flushed. Also stamps the connection's last read for the keep-alive deadline: the first handler sees every read.
 */
@ChannelHandler.Sharable
public final class ByteCountingHandler extends ChannelDuplexHandler {

    private final Counter in;
    private final Counter out;

    public ByteCountingHandler(Counter in, Counter out) {
        this.in = in;
        this.out = out;
    }

    /** The node's handler, counting into its {@code tributary.mqtt.bytes.in} / {@code .out} counters. */
    public ByteCountingHandler(TransportMetrics metrics) {
        this(metrics.mqttBytesIn(), metrics.mqttBytesOut());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            in.increment(buf.readableBytes());
            // Any bytes, even part of a packet, are activity for the keep-alive deadline (KeepAliveWatch).
            ClientConnection connection = ClientConnection.of(ctx.channel());
            if (connection != null) {
                connection.bytesRead(System.nanoTime());
            }
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf buf) {
            out.increment(buf.readableBytes());
        }
        ctx.write(msg, promise);
    }
}
