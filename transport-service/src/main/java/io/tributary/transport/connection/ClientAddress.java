package io.tributary.transport.connection;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * The one answer to "where does this client connect from": the source address of the connection's PROXY protocol
 * header when the listener takes one (set by {@code listener/proxy} before any MQTT handler is added), else the
 * socket's peer. Per-address limits, the block list, log lines and the address session-service records all read it
 * here, so behind a load balancer they agree on the client's address rather than the balancer's.
 */
public final class ClientAddress {

    private static final AttributeKey<InetSocketAddress> PROXIED = AttributeKey.valueOf("tributary.clientAddress");

    private ClientAddress() {}

    /** The client's address: the PROXY header's source when there was one, else the socket's remote address. */
    public static SocketAddress of(Channel channel) {
        InetSocketAddress proxied = channel.attr(PROXIED).get();
        return proxied != null ? proxied : channel.remoteAddress();
    }

    /** The client's IP address, or null when the channel has none (an in-process channel). */
    public static InetAddress ip(Channel channel) {
        return of(channel) instanceof InetSocketAddress a ? a.getAddress() : null;
    }

    /** Records the source address a trusted proxy reported for this connection; set once, before CONNECT. */
    public static void proxied(Channel channel, InetSocketAddress source) {
        channel.attr(PROXIED).set(source);
    }

    /** The socket's own peer: the proxy itself when there is one. For log lines about the proxy. */
    public static SocketAddress peer(Channel channel) {
        return channel.remoteAddress();
    }
}
