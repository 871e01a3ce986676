package io.tributary.transport.listener;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tributary.transport.connect.ConnectionLifecycleHandler;
import io.tributary.transport.connection.TerminalHandler;

/**
 * The end of the MQTT chain, one pipeline entry for two handlers that stay separate classes: what nobody consumed
 * and exceptions go to {@link TerminalHandler}, the end of the connection to {@link ConnectionLifecycleHandler}.
 * They handle disjoint events, so sharing one place changes nothing but the handler context each connection would
 * otherwise pay for (96 bytes with ZGC; see {@link PacketDispatcher}).
 */
@ChannelHandler.Sharable
public final class PipelineEnd extends ChannelInboundHandlerAdapter {

    private final ConnectionLifecycleHandler lifecycle;
    private final TerminalHandler terminal;

    public PipelineEnd(ConnectionLifecycleHandler lifecycle, TerminalHandler terminal) {
        this.lifecycle = lifecycle;
        this.terminal = terminal;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        terminal.channelRead(ctx, msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        terminal.exceptionCaught(ctx, cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        lifecycle.channelInactive(ctx);
    }
}
