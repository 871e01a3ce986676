package io.tributary.transport.listener.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.tributary.transport.connection.ClientAddress;
import io.tributary.transport.limits.LimitRefusals;
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
    private final ProxyRefusal refusal;

    /**
     * @param listenerPipeline adds the listener's handlers (TLS, WebSocket, MQTT) to an active channel's pipeline
     * @param refusals         counts and logs the connections refused here
     */
    public ProxyProtocolInitializer(
            ProxyProtocolProperties properties, Consumer<ChannelPipeline> listenerPipeline, LimitRefusals refusals) {
        this.properties = properties;
        this.trusted = properties.trustedProxies();
        this.listenerPipeline = listenerPipeline;
        this.refusal = new ProxyRefusal(refusals);
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        init(channel);
    }

    /** Visible for tests, which build the same pipeline on an EmbeddedChannel. */
    public void init(Channel channel) {
        SocketAddress peer = ClientAddress.peer(channel);
        if (!trusted.trusts(peer instanceof InetSocketAddress a ? a.getAddress() : null)) {
            refusal.close(channel, "not a trusted PROXY protocol peer (TRIBUTARY_PROXY_PROTOCOL_TRUSTED)");
            return;
        }
        ChannelPipeline p = channel.pipeline();
        p.addLast(SIGNATURE, new ProxySignatureCheck(refusal));
        p.addLast(DECODER, new HAProxyMessageDecoder());
        p.addLast(HEADER, new ProxyHeaderHandler(properties.timeout(), listenerPipeline, refusal));
    }
}
