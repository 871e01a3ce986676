package io.tributary.transport.listener.proxy;

import io.netty.channel.Channel;
import io.tributary.transport.connection.ClientAddress;
import io.tributary.transport.limits.LimitRefusals;

/**
 * The one way a connection is refused for its PROXY header: counted in
 * {@code tributary_limit_refusals_total{reason="proxy_protocol"}}, one log line naming the peer and why (rate-limited
 * like every refusal, so a flood of connections without a header cannot flood the log), then closed.
 */
final class ProxyRefusal {

    private final LimitRefusals refusals;

    ProxyRefusal(LimitRefusals refusals) {
        this.refusals = refusals;
    }

    void close(Channel channel, String cause) {
        refusals.refused(LimitRefusals.PROXY_PROTOCOL, "Closing connection from " + ClientAddress.peer(channel), cause);
        channel.close();
    }
}
