package io.tributary.transport.subscribe;

import java.util.function.BiConsumer;

import io.tributary.common.topic.TopicTrie;
import io.tributary.transport.connection.ClientConnection;

/**
 * The subscriptions of the clients connected to this node. Routing sends a node one copy of each message; this
 * index fans it out to the local subscribers. Matched from the downlink consumer thread, changed from event loops.
 */
public final class LocalSubscriptions {

    /** What a connection asked for when it subscribed to one filter. */
    public record Options(int qos, boolean noLocal, boolean retainAsPublished) {
    }

    private final TopicTrie<ClientConnection, Options> trie = new TopicTrie<>();

    /** Must be called on the connection's event loop (it also records the filter on the connection). */
    public void add(ClientConnection connection, String filter, Options options) {
        trie.put(filter, connection, options);
        connection.localFilters().add(filter);
    }

    /** Must be called on the connection's event loop. */
    public void remove(ClientConnection connection, String filter) {
        trie.remove(filter, connection);
        connection.localFilters().remove(filter);
    }

    /** Removes every filter of a closed connection. Must be called on the connection's event loop. */
    public void removeAll(ClientConnection connection) {
        for (String filter : connection.localFilters()) {
            trie.remove(filter, connection);
        }
        connection.localFilters().clear();
    }

    public void match(String topic, BiConsumer<ClientConnection, Options> visitor) {
        trie.match(topic, visitor);
    }

    public int size() {
        return trie.entryCount();
    }
}
