package io.tributary.transport.index;

import io.tributary.common.subscription.SharedTargets;
import io.tributary.common.topic.SharedFilters;
import io.tributary.common.topic.TopicFilters;
import io.tributary.common.topic.TopicTrie;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.SubscriptionOptions;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The subscriptions of the clients connected to this node. Routing sends a node one copy of each message; this
 * index fans it out to the local subscribers. Matched from the downlink consumer thread, changed from event loops.
 *
 * <p>Shared subscriptions ({@code $share/g/f}) are indexed under their inner filter {@code f} in a trie of their
 * own, keyed by connection and full filter. A message reaches such a member only when the router chose it: the
 * downlink record's {@link io.tributary.common.kafka.RecordHeaders#SHARED_TARGETS} names its client id and filter.
 */
public final class LocalSubscriptions {

    /**
     * Everything one client's matching subscriptions say about one message: it gets a single copy (MQTT 5 section
     * 3.3.4 allows one per subscription, but one copy is what clients expect and what 3.1.1 section 3.3.5 describes)
     * at the highest QoS among them, with all their identifiers.
     *
     * @param retainAsPublished true if any matching subscription keeps the RETAIN flag as published
     */
    public record Match(int qos, boolean retainAsPublished, int[] subscriptionIds) {}

    private static final int[] NONE = new int[0];

    /** A member of a share group on this node: the connection and the full {@code $share/g/f} filter. */
    private record SharedMember(ClientConnection connection, String sharedFilter) {}

    private final TopicTrie<ClientConnection, SubscriptionOptions> trie = new TopicTrie<>();
    private final TopicTrie<SharedMember, SubscriptionOptions> shared = new TopicTrie<>();

    /** Must be called on the connection's event loop (it also records the filter as the connection's). */
    public void add(ClientConnection connection, String filter, SubscriptionOptions options) {
        if (SharedFilters.isShared(filter)) {
            shared.put(SharedFilters.innerFilter(filter), new SharedMember(connection, filter), options);
        } else {
            trie.put(filter, connection, options);
        }
        ConnectionFilters.created(connection).byFilter.put(filter, options);
    }

    /** Must be called on the connection's event loop. */
    public void remove(ClientConnection connection, String filter) {
        removeFromIndex(connection, filter);
        ConnectionFilters filters = ConnectionFilters.of(connection);
        if (filters != null) {
            filters.byFilter.remove(filter);
        }
    }

    /** Removes every filter of a closed connection. Must be called on the connection's event loop. */
    public void removeAll(ClientConnection connection) {
        ConnectionFilters filters = ConnectionFilters.of(connection);
        if (filters == null) {
            return;
        }
        for (String filter : filters.byFilter.keySet()) {
            removeFromIndex(connection, filter);
        }
        filters.byFilter.clear();
    }

    /** How many filters {@code connection} holds here. Must be called on the connection's event loop. */
    public int filterCount(ClientConnection connection) {
        ConnectionFilters filters = ConnectionFilters.of(connection);
        return filters == null ? 0 : filters.byFilter.size();
    }

    /** Whether {@code connection} holds {@code filter} here. Must be called on the connection's event loop. */
    public boolean holds(ClientConnection connection, String filter) {
        ConnectionFilters filters = ConnectionFilters.of(connection);
        return filters != null && filters.byFilter.containsKey(filter);
    }

    private void removeFromIndex(ClientConnection connection, String filter) {
        if (SharedFilters.isShared(filter)) {
            shared.remove(SharedFilters.innerFilter(filter), new SharedMember(connection, filter));
        } else {
            trie.remove(filter, connection);
        }
    }

    /**
     * Visits each connection with at least one subscription matching {@code topic} once, with its subscriptions
     * merged. A no-local subscription of the publisher itself does not count (MQTT 5 section 3.8.3.1), but another
     * of its subscriptions without no-local still does.
     *
     * @param publisherClientId client id of the message's publisher, or {@code null} when unknown
     */
    public void matchPerClient(String topic, String publisherClientId, BiConsumer<ClientConnection, Match> visitor) {
        matchPerClient(topic, publisherClientId, List.of(), visitor);
    }

    /**
     * As {@link #matchPerClient(String, String, BiConsumer)}, plus the shared subscriptions named in
     * {@code sharedTargets} (the members the router chose for this message); other members of those groups, and
     * every member of groups not named, get nothing.
     */
    public void matchPerClient(
            String topic,
            String publisherClientId,
            List<SharedTargets.Target> sharedTargets,
            BiConsumer<ClientConnection, Match> visitor) {
        Map<ClientConnection, Match> merged = new LinkedHashMap<>();
        trie.match(topic, (connection, options) -> {
            if (options.noLocal() && connection.clientId().equals(publisherClientId)) {
                return;
            }
            merged.merge(connection, single(options), LocalSubscriptions::merge);
        });
        if (!sharedTargets.isEmpty()) {
            shared.match(topic, (member, options) -> {
                if (sharedTargets.contains(
                        new SharedTargets.Target(member.connection().clientId(), member.sharedFilter()))) {
                    merged.merge(member.connection(), single(options), LocalSubscriptions::merge);
                }
            });
        }
        merged.forEach(visitor);
    }

    /**
     * The subscriptions of one connection that a message from its session queue matches, merged like
     * {@link #matchPerClient}; {@code null} when none does (it unsubscribed meanwhile). Must be called on the
     * connection's event loop.
     *
     * @param sharedFilters the share groups ({@code $share/g/f}) that chose this client for the message
     */
    public Match matchOne(
            ClientConnection connection, String topic, String publisherClientId, List<String> sharedFilters) {
        ConnectionFilters filters = ConnectionFilters.of(connection);
        if (filters == null) {
            return null;
        }
        Match merged = null;
        for (Map.Entry<String, SubscriptionOptions> subscription : filters.byFilter.entrySet()) {
            String filter = subscription.getKey();
            SubscriptionOptions options = subscription.getValue();
            boolean matches;
            if (SharedFilters.isShared(filter)) {
                matches = sharedFilters.contains(filter)
                        && TopicFilters.matches(SharedFilters.innerFilter(filter), topic);
            } else {
                matches = !(options.noLocal() && connection.clientId().equals(publisherClientId))
                        && TopicFilters.matches(filter, topic);
            }
            if (matches) {
                merged = merged == null ? single(options) : merge(merged, single(options));
            }
        }
        return merged;
    }

    private static Match single(SubscriptionOptions options) {
        return new Match(
                options.qos(),
                options.retainAsPublished(),
                options.subscriptionId() == 0 ? NONE : new int[] {options.subscriptionId()});
    }

    private static Match merge(Match a, Match b) {
        int[] ids = a.subscriptionIds();
        if (b.subscriptionIds().length > 0) {
            ids = Arrays.copyOf(a.subscriptionIds(), a.subscriptionIds().length + b.subscriptionIds().length);
            System.arraycopy(b.subscriptionIds(), 0, ids, a.subscriptionIds().length, b.subscriptionIds().length);
        }
        return new Match(Math.max(a.qos(), b.qos()), a.retainAsPublished() || b.retainAsPublished(), ids);
    }

    public int size() {
        return trie.entryCount() + shared.entryCount();
    }
}
