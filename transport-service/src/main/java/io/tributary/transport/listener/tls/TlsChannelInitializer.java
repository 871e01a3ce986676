package io.tributary.transport.listener.tls;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.tributary.transport.connection.ClientAddress;
import java.time.Duration;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MQTT over TLS: the TLS handler in front of the MQTT pipeline ({@code MqttChannelInitializer::addMqttHandlers}
 * in production; tests pass their own).
 */
public final class TlsChannelInitializer extends ChannelInitializer<SocketChannel> {

    public static final String TLS = "tls";
    public static final String TLS_HANDSHAKE = "tlsHandshake";

    private final ReloadingSslContext contexts;
    private final Duration handshakeTimeout;
    private final Consumer<ChannelPipeline> mqtt;

    public TlsChannelInitializer(
            ReloadingSslContext contexts, Duration handshakeTimeout, Consumer<ChannelPipeline> mqtt) {
        this.contexts = contexts;
        this.handshakeTimeout = handshakeTimeout;
        this.mqtt = mqtt;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        addTlsAndMqtt(channel.pipeline());
    }

    /** The TLS handler and the MQTT chain behind it; behind a PROXY protocol header once it is read. */
    public void addTlsAndMqtt(ChannelPipeline pipeline) {
        addTls(pipeline, contexts, handshakeTimeout);
        mqtt.accept(pipeline);
    }

    /** Adds the TLS handler (with the context current now) first in the pipeline; shared with secure WebSocket. */
    public static void addTls(ChannelPipeline pipeline, ReloadingSslContext contexts, Duration handshakeTimeout) {
        SslHandler ssl = contexts.context().newHandler(pipeline.channel().alloc());
        ssl.setHandshakeTimeoutMillis(handshakeTimeout.toMillis());
        pipeline.addLast(TLS, ssl);
        pipeline.addLast(TLS_HANDSHAKE, HandshakeLogger.INSTANCE);
    }

    /**
     * Failed handshakes (no or untrusted client certificate, an old protocol, a timeout) and broken TLS records are
     * the client's problem and can be frequent on an Internet-facing port: logged at debug and closed here, rather
     * than reaching the MQTT chain's error handling as internal errors. SslHandler has already sent the alert.
     */
    @io.netty.channel.ChannelHandler.Sharable
    static final class HandshakeLogger extends ChannelInboundHandlerAdapter {
        static final HandshakeLogger INSTANCE = new HandshakeLogger();
        private static final Logger log = LoggerFactory.getLogger(TlsChannelInitializer.class);

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
            if (evt instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
                log.debug(
                        "TLS handshake with {} failed: {}",
                        ClientAddress.of(ctx.channel()),
                        String.valueOf(done.cause()));
            }
            super.userEventTriggered(ctx, evt);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
            for (Throwable t = cause; t != null; t = t.getCause()) {
                if (t instanceof javax.net.ssl.SSLException) {
                    log.debug("TLS error on {}: {}", ClientAddress.of(ctx.channel()), t.toString());
                    ctx.close();
                    return;
                }
            }
            super.exceptionCaught(ctx, cause);
        }
    }
}
