package io.tributary.transport.listener.proxy;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import io.netty.util.NetUtil;
import io.tributary.transport.connection.ClientAddress;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Behind {@code HAProxyMessageDecoder}: takes the decoded PROXY header, records its source as the connection's
 * {@link ClientAddress} (command PROXY over IPv4 or IPv6; a LOCAL header, the balancer's own health check, and an
 * UNKNOWN or UNIX family keep the peer's address, as the protocol says), then builds the listener's own pipeline
 * (TLS, WebSocket, MQTT) behind itself, lets it see the connection become active, and leaves. Until then nothing
 * behind it exists, so the per-address admission, the TLS handshake and the MQTT connect timeout all start with the
 * client's address known. A header that does not arrive within the timeout, or one the decoder refuses, closes the
 * connection with one log line.
 */
final class ProxyHeaderHandler extends ChannelInboundHandlerAdapter {

    private final long timeoutMillis;
    private final Consumer<ChannelPipeline> listenerPipeline;
    private final ProxyRefusal refusal;
    private ScheduledFuture<?> timer;
    private boolean resolved;

    ProxyHeaderHandler(Duration timeout, Consumer<ChannelPipeline> listenerPipeline, ProxyRefusal refusal) {
        this.timeoutMillis = timeout.toMillis();
        this.listenerPipeline = listenerPipeline;
        this.refusal = refusal;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        timer = ctx.executor()
                .schedule(
                        () -> {
                            if (!resolved) {
                                resolved = true;
                                refusal.close(
                                        ctx.channel(), "no PROXY protocol header within " + timeoutMillis + " ms");
                            }
                        },
                        timeoutMillis,
                        TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // Held back: the listener's handlers are added, and see the connection active, once the header is read.
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HAProxyMessage header)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            resolved = true;
            timer.cancel(false);
            InetSocketAddress source = source(header);
            if (source != null) {
                ClientAddress.proxied(ctx.channel(), source);
            }
        } finally {
            header.release();
        }
        listenerPipeline.accept(ctx.pipeline());
        ctx.fireChannelActive();
        ctx.pipeline().remove(this);
    }

    /** The client's address from a PROXY command over IPv4 or IPv6; null when the peer's address stays. */
    static InetSocketAddress source(HAProxyMessage header) {
        if (header.command() != HAProxyCommand.PROXY) {
            return null;
        }
        HAProxyProxiedProtocol.AddressFamily family = header.proxiedProtocol().addressFamily();
        if (family != HAProxyProxiedProtocol.AddressFamily.AF_IPv4
                && family != HAProxyProxiedProtocol.AddressFamily.AF_IPv6) {
            return null;
        }
        // A literal the decoder has checked already: never a DNS lookup.
        InetAddress address = NetUtil.createInetAddressFromIpAddressString(header.sourceAddress());
        return address == null ? null : new InetSocketAddress(address, header.sourcePort());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (resolved) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        resolved = true;
        timer.cancel(false);
        refusal.close(ctx.channel(), "invalid PROXY protocol header: " + innermost(cause));
    }

    /** The decoder wraps what it found wrong; the innermost message says it. */
    private static String innermost(Throwable cause) {
        Throwable t = cause;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (timer != null) {
            timer.cancel(false);
        }
        super.channelInactive(ctx);
    }
}
