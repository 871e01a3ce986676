package io.tributary.routing.fanout;

import io.tributary.common.subscription.SharedTargets;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.common.topic.SharedFilters;
import io.tributary.routing.index.SubscriptionIndex;
import io.tributary.sessionqueue.SessionQueueing;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Decides where a publish goes.
 * <ul>
 *   <li>Sessions that end with their connection (not persistent): every node holding at least one of their matching
 *       subscriptions gets the record once, however many match (the node fans out to its local subscribers).</li>
 *   <li>Persistent sessions: when the message reaches them at QoS 1 or 2 (the publish QoS, downgraded to the highest
 *       QoS of their matching subscriptions) it goes to their session queue, online or not, and their node is woken
 *       up; at QoS 0 it goes straight to their node like a non-persistent session's, and is not kept for them while
 *       they are offline.</li>
 *   <li>Every matching share group ({@code $share/g/f}) gets the message once: the {@link SharedMemberChooser} picks
 *       one online member; only when none is online is an offline persistent member picked, whose queue keeps it.</li>
 *   <li>Which of these go through a queue is {@link SessionQueueing#viaQueue}, the one place that decides it.</li>
 * </ul>
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

    /** A persistent session's matching normal subscriptions, merged. */
    private static final class PersistentMatch {
        final String nodeId;
        int maxQos;
        final StringBuilder sharedFilters = new StringBuilder();

        PersistentMatch(String nodeId, int qos) {
            this.nodeId = nodeId;
            this.maxQos = qos;
        }
    }

    /**
     * @param partition publish partition the record came from (selects the exact subscriptions)
     * @param topic MQTT topic name of the publish
     * @param publishQos QoS the message was published with
     * @param publisherClientId client id of the publisher, {@code null} if unknown; a subscription with No Local
     *        set by that same client does not count (MQTT 5, 3.8.3.1)
     */
    public DeliveryPlan plan(int partition, String topic, int publishQos, String publisherClientId) {
        SortedMap<String, List<SharedTargets.Target>> nodes = new TreeMap<>();
        Map<String, List<SubscriptionRecord>> groups = new HashMap<>(4);
        Map<String, PersistentMatch> persistent = new LinkedHashMap<>(4);
        index.forEachMatch(partition, topic, subscription -> {
            if (subscription.noLocal() && subscription.clientId().equals(publisherClientId)) {
                return;
            }
            if (SharedFilters.isShared(subscription.filter())) {
                groups.computeIfAbsent(subscription.filter(), g -> new ArrayList<>())
                        .add(subscription);
            } else if (subscription.persistent()) {
                persistent.merge(
                        subscription.clientId(),
                        new PersistentMatch(subscription.nodeId(), subscription.qos()),
                        (a, b) -> {
                            a.maxQos = Math.max(a.maxQos, b.maxQos);
                            return a;
                        });
            } else if (subscription.online()) {
                nodes.computeIfAbsent(subscription.nodeId(), n -> new ArrayList<>(0));
            }
        });
        for (Map.Entry<String, List<SubscriptionRecord>> group : groups.entrySet()) {
            SubscriptionRecord chosen = choose(group.getKey(), group.getValue(), publisherClientId, topic);
            if (chosen == null) {
                continue;
            }
            if (chosen.persistent() && SessionQueueing.viaQueue(publishQos, chosen.qos())) {
                PersistentMatch match =
                        persistent.computeIfAbsent(chosen.clientId(), c -> new PersistentMatch(chosen.nodeId(), 0));
                match.maxQos = Math.max(match.maxQos, chosen.qos());
                if (!match.sharedFilters.isEmpty()) {
                    match.sharedFilters.append('\u0000');
                }
                match.sharedFilters.append(chosen.filter());
            } else if (chosen.online()) {
                nodes.computeIfAbsent(chosen.nodeId(), n -> new ArrayList<>(1))
                        .add(new SharedTargets.Target(chosen.clientId(), chosen.filter()));
            }
        }
        List<DeliveryPlan.QueueTarget> queued = new ArrayList<>(persistent.size());
        for (Map.Entry<String, PersistentMatch> entry : persistent.entrySet()) {
            PersistentMatch match = entry.getValue();
            boolean viaQueue = SessionQueueing.viaQueue(publishQos, match.maxQos);
            if (viaQueue) {
                queued.add(new DeliveryPlan.QueueTarget(entry.getKey(), match.nodeId, match.sharedFilters.toString()));
            }
            if (match.nodeId != null && (viaQueue || match.sharedFilters.isEmpty())) {
                // Queued: the node is woken up. QoS 0: the node delivers it from the record, like any other.
                nodes.computeIfAbsent(match.nodeId, n -> new ArrayList<>(0));
            }
        }
        return new DeliveryPlan(nodes, queued);
    }

    /** One member of the group: an online one if any, else an offline persistent one (its queue keeps the message). */
    private SubscriptionRecord choose(
            String group, List<SubscriptionRecord> members, String publisherClientId, String topic) {
        List<SubscriptionRecord> online = new ArrayList<>(members.size());
        for (SubscriptionRecord member : members) {
            if (member.online()) {
                online.add(member);
            }
        }
        List<SubscriptionRecord> candidates = online.isEmpty() ? members : online;
        if (candidates.isEmpty()) {
            return null;
        }
        // Sorted so that round-robin turns and sticky hashes name the same member whatever the index order.
        candidates.sort(BY_CLIENT);
        return chooser.choose(group, candidates, publisherClientId, topic);
    }
}
