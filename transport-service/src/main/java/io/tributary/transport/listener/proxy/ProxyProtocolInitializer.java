package io.tributary.transport.listener.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.tributary.transport.connection.ClientAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.function.Consumer;

/**
 * A listener behind a load balancer that speaks the PROXY protocol: refuses a peer outside the trusted networks at
 * once, then puts the header's handlers first in the pipeline, in front of TLS (the header comes in clear, before the
 * handshake) and of everything else; the listener's own pipeline is built once the header is read.
 */
public final class ProxyProtocolInitializer extends ChannelInitializer<SocketChannel> {

    public static final String SIGNATURE = "proxySignature";
    public static final String DECODER = "proxyDecoder";
    public static final String HEADER = "proxyHeader";

    private final ProxyProtocolProperties properties;
    private final TrustedProxies trusted;
    private final Consumer<ChannelPipeline> listenerPipeline;

    /** @param listenerPipeline adds the listener's handlers (TLS, WebSocket, MQTT) to an active channel's pipeline */
    public ProxyProtocolInitializer(ProxyProtocolProperties properties, Consumer<ChannelPipeline> listenerPipeline) {
        this.properties = properties;
        this.trusted = properties.trustedProxies();
        this.listenerPipeline = listenerPipeline;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        init(channel);
    }

    /** Visible for tests, which build the same pipeline on an EmbeddedChannel. */
    public void init(Channel channel) {
        SocketAddress peer = ClientAddress.peer(channel);
        if (!trusted.trusts(peer instanceof InetSocketAddress a ? a.getAddress() : null)) {
            ProxyRefusal.close(channel, "not a trusted PROXY protocol peer (TRIBUTARY_PROXY_PROTOCOL_TRUSTED)");
            return;
        }
        ChannelPipeline p = channel.pipeline();
        p.addLast(SIGNATURE, new ProxySignatureCheck());
        p.addLast(DECODER, new HAProxyMessageDecoder());
        p.addLast(HEADER, new ProxyHeaderHandler(properties.timeout(), listenerPipeline));
    }
}
