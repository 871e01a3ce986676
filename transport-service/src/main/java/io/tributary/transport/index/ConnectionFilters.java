package io.tributary.transport.index;

import io.netty.util.AttributeKey;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.SubscriptionOptions;
import java.util.HashMap;
import java.util.Map;

/**
 * The filters one connection holds in the node's {@link LocalSubscriptions}, with their options: so they can be
 * removed when it closes, counted against its subscription limit, and so a message from its session queue can be
 * matched against this connection alone. Kept on the connection's channel (a Netty attribute, set on the first
 * subscription), so the connection itself knows nothing of the index.
 *
 * <p>Event-loop confined: read and changed only on the connection's event loop.
 */
final class ConnectionFilters {

    private static final AttributeKey<ConnectionFilters> KEY = AttributeKey.valueOf("tributary.filters");

    final Map<String, SubscriptionOptions> byFilter = new HashMap<>();

    private ConnectionFilters() {}

    /** The connection's filters, or null when it never subscribed. */
    static ConnectionFilters of(ClientConnection connection) {
        return connection.channel().attr(KEY).get();
    }

    /** The connection's filters, created on first use. */
    static ConnectionFilters created(ClientConnection connection) {
        ConnectionFilters filters = of(connection);
        if (filters == null) {
            filters = new ConnectionFilters();
            connection.channel().attr(KEY).set(filters);
        }
        return filters;
    }
}
