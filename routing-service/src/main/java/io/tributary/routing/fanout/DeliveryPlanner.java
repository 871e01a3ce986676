package io.tributary.routing.fanout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

import io.tributary.common.subscription.SharedTargets;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.common.topic.SharedFilters;
import io.tributary.routing.index.SubscriptionIndex;

/**
 * Decides which transport nodes receive a publish: every node holding at least one online normal subscription that
 * matches the topic, each node once however many of its subscriptions match (the node fans out to its local
 * subscribers itself); and, for every matching share group ({@code $share/g/f}), the node of the one member chosen
 * by the {@link SharedMemberChooser}, together with that member's client id so the node delivers to it alone.
 */
public final class DeliveryPlanner {

    private static final Comparator<SubscriptionRecord> BY_CLIENT = Comparator.comparing(SubscriptionRecord::clientId);

    private final SubscriptionIndex index;
    private final SharedMemberChooser chooser;

    public DeliveryPlanner(SubscriptionIndex index) {
        this(index, new SharedMemberChooser(SharedStrategy.ROUND_ROBIN));
    }

    public DeliveryPlanner(SubscriptionIndex index, SharedMemberChooser chooser) {
        this.index = index;
        this.chooser = chooser;
    }

    /**
     * @param partition publish partition the record came from (selects the exact subscriptions)
     * @param topic MQTT topic name of the publish
     * @param publisherClientId client id of the publisher, {@code null} if unknown; a subscription with No Local
     *        set by that same client does not count (MQTT 5, 3.8.3.1)
     * @return node id → the shared-subscription members chosen on that node (empty when the node receives the
     *         message for normal subscriptions only); nodes distinct, in a stable order
     */
    public SortedMap<String, List<SharedTargets.Target>> plan(int partition, String topic, String publisherClientId) {
        SortedMap<String, List<SharedTargets.Target>> nodes = new TreeMap<>();
        Map<String, List<SubscriptionRecord>> groups = new HashMap<>(4);
        index.forEachMatch(partition, topic, subscription -> {
            if (!wants(subscription, publisherClientId)) {
                return;
            }
            if (SharedFilters.isShared(subscription.filter())) {
                groups.computeIfAbsent(subscription.filter(), g -> new ArrayList<>()).add(subscription);
            } else {
                nodes.computeIfAbsent(subscription.nodeId(), n -> new ArrayList<>(0));
            }
        });
        for (Map.Entry<String, List<SubscriptionRecord>> group : groups.entrySet()) {
            List<SubscriptionRecord> members = group.getValue();
            // Sorted so that round-robin turns and sticky hashes name the same member whatever the index order.
            members.sort(BY_CLIENT);
            SubscriptionRecord chosen = chooser.choose(group.getKey(), members, publisherClientId, topic);
            nodes.computeIfAbsent(chosen.nodeId(), n -> new ArrayList<>(1))
                    .add(new SharedTargets.Target(chosen.clientId(), chosen.filter()));
        }
        return nodes;
    }

    /** The nodes of {@link #plan}, for callers that need only them. */
    public Set<String> nodesFor(int partition, String topic, String publisherClientId) {
        return plan(partition, topic, publisherClientId).keySet();
    }

    private static boolean wants(SubscriptionRecord subscription, String publisherClientId) {
        // Offline sessions stay indexed but receive nothing here; queuing for them is a later step. An offline
        // member of a share group is skipped, so the message goes to an online one.
        if (!subscription.online()) {
            return false;
        }
        return !(subscription.noLocal() && subscription.clientId().equals(publisherClientId));
    }
}
