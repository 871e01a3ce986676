package io.tributary.transport.listener.proxy;

import io.netty.channel.Channel;
import io.tributary.transport.connection.ClientAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The one way a connection is refused for its PROXY header: one log line naming the peer and why, then closed. */
final class ProxyRefusal {

    private static final Logger log = LoggerFactory.getLogger(ProxyRefusal.class);

    private ProxyRefusal() {}

    static void close(Channel channel, String cause) {
        log.warn("Closing connection from {}: {}", ClientAddress.peer(channel), cause);
        channel.close();
    }
}
