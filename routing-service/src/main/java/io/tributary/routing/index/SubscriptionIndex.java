package io.tributary.routing.index;

import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.common.topic.SharedFilters;
import io.tributary.common.topic.TopicTrie;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The subscriptions one router matches publishes against: the exact subscriptions of the publish partitions it
 * owns (one map per partition, since an exact filter can only match the topic equal to it) and every wildcard
 * subscription (one trie).
 *
 * <p>A shared subscription ({@code $share/g/f}) is indexed under its inner filter {@code f}, the one topics are
 * matched against, keyed by its full filter and client id so that it never replaces the same client's normal
 * subscription to {@code f} or its membership of another group; visitors see the record with its full filter and
 * group members by it.
 *
 * <p>Single writer: only the routing loop thread changes or reads the index. The counts behind the gauges are
 * published through volatile fields so that a metrics scrape on another thread reads current values.
 */
public final class SubscriptionIndex {

    /** Exact subscriptions of one publish partition: inner filter -> (member key -> subscription). */
    private static final class ExactPartition {
        final Map<String, Map<String, SubscriptionRecord>> byFilter = new HashMap<>();
        int offline;
    }

    private final Map<Integer, ExactPartition> exact = new HashMap<>();
    /**
     * Wildcard subscriptions: inner filter -> (member key -> subscription). Replaced, not cleared, by
     * {@link #clear()}; volatile for the gauge that reads it on another thread.
     */
    private volatile TopicTrie<String, SubscriptionRecord> wildcard = new TopicTrie<>();

    private int wildcardOffline;

    private volatile int exactFilterCount;
    private volatile int offlineCount;
    private volatile Set<Integer> ownedPartitions = Set.of();

    /** Starts holding the exact subscriptions of {@code partition} (empty until its feed partition is read). */
    public void ownPartition(int partition) {
        if (exact.putIfAbsent(partition, new ExactPartition()) == null) {
            publishOwnership();
        }
    }

    /** Forgets the exact subscriptions of {@code partition}: another router owns it now. */
    public void dropPartition(int partition) {
        if (exact.remove(partition) != null) {
            publishOwnership();
        }
    }

    /**
     * Forgets everything, before the feed is read again from the beginning: a removal whose tombstone has been
     * compacted away in the meantime would otherwise never be applied.
     */
    public void clear() {
        exact.clear();
        wildcard = new TopicTrie<>();
        wildcardOffline = 0;
        publishOwnership();
    }

    public boolean ownsPartition(int partition) {
        return exact.containsKey(partition);
    }

    /** Owned publish partitions, a snapshot safe to read from any thread. */
    public Set<Integer> ownedPartitions() {
        return ownedPartitions;
    }

    /**
     * Applies one feed record. An exact change for a partition this router does not own is ignored: it can only
     * come from a read that raced with the partition's revocation.
     *
     * @return the record it replaced or removed; null when there was none or the change was ignored
     */
    public SubscriptionRecord apply(SubscriptionChange change) {
        SubscriptionRecord previous;
        if (change.exact()) {
            ExactPartition partition = exact.get(change.partition());
            if (partition == null) {
                return null;
            }
            previous = change.removal()
                    ? removeExact(partition, change.filter(), change.clientId())
                    : putExact(partition, change.subscription());
            partition.offline += offlineDelta(previous, change.subscription());
        } else {
            String matched = SharedFilters.innerFilter(change.filter());
            String member = memberKey(change.filter(), change.clientId());
            previous = change.removal()
                    ? wildcard.remove(matched, member)
                    : wildcard.put(matched, member, change.subscription());
            wildcardOffline += offlineDelta(previous, change.subscription());
        }
        publishCounts();
        return previous;
    }

    /**
     * Visits every subscription, online or not, whose filter matches {@code topic}: the exact ones of publish
     * partition {@code partition} and the wildcard ones.
     */
    public void forEachMatch(int partition, String topic, Consumer<SubscriptionRecord> visitor) {
        ExactPartition exactPartition = exact.get(partition);
        if (exactPartition != null) {
            Map<String, SubscriptionRecord> clients = exactPartition.byFilter.get(topic);
            if (clients != null) {
                clients.values().forEach(visitor);
            }
        }
        wildcard.match(topic, (clientId, subscription) -> visitor.accept(subscription));
    }

    /** Distinct exact filters across the owned partitions. */
    public int exactFilterCount() {
        return exactFilterCount;
    }

    /** Distinct wildcard filters. */
    public int wildcardFilterCount() {
        return wildcard.filterCount();
    }

    /** Subscriptions held for offline sessions (exact of owned partitions + wildcard). */
    public int offlineCount() {
        return offlineCount;
    }

    private static SubscriptionRecord putExact(ExactPartition partition, SubscriptionRecord subscription) {
        return partition
                .byFilter
                .computeIfAbsent(SharedFilters.innerFilter(subscription.filter()), f -> new HashMap<>())
                .put(memberKey(subscription.filter(), subscription.clientId()), subscription);
    }

    private static SubscriptionRecord removeExact(ExactPartition partition, String filter, String clientId) {
        String matched = SharedFilters.innerFilter(filter);
        Map<String, SubscriptionRecord> clients = partition.byFilter.get(matched);
        if (clients == null) {
            return null;
        }
        SubscriptionRecord removed = clients.remove(memberKey(filter, clientId));
        if (clients.isEmpty()) {
            partition.byFilter.remove(matched);
        }
        return removed;
    }

    /**
     * Key of one subscription among those of its inner filter: the client id for a normal subscription, full filter
     * U+0000 client id for a shared one (MQTT forbids U+0000 in client ids, so the two never collide).
     */
    private static String memberKey(String filter, String clientId) {
        return SharedFilters.isShared(filter) ? filter + '\u0000' + clientId : clientId;
    }

    private static int offlineDelta(SubscriptionRecord before, SubscriptionRecord after) {
        return offline(after) - offline(before);
    }

    private static int offline(SubscriptionRecord subscription) {
        return subscription != null && !subscription.online() ? 1 : 0;
    }

    private void publishCounts() {
        int filters = 0;
        int offline = wildcardOffline;
        for (ExactPartition partition : exact.values()) {
            filters += partition.byFilter.size();
            offline += partition.offline;
        }
        exactFilterCount = filters;
        offlineCount = offline;
    }

    private void publishOwnership() {
        ownedPartitions = Collections.unmodifiableSortedSet(new TreeSet<>(exact.keySet()));
        publishCounts();
    }
}
