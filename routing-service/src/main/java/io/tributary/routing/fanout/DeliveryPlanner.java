package io.tributary.routing.fanout;

import java.util.Set;
import java.util.TreeSet;

import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.routing.index.SubscriptionIndex;

/**
 * Decides which transport nodes receive a publish: every node holding at least one online subscription that
 * matches the topic, each node once however many of its subscriptions match (the node fans out to its local
 * subscribers itself).
 */
public final class DeliveryPlanner {

    private final SubscriptionIndex index;

    public DeliveryPlanner(SubscriptionIndex index) {
        this.index = index;
    }

    /**
     * @param partition publish partition the record came from (selects the exact subscriptions)
     * @param topic MQTT topic name of the publish
     * @param publisherClientId client id of the publisher, {@code null} if unknown; a subscription with No Local
     *        set by that same client does not count (MQTT 5, 3.8.3.1)
     * @return node ids, distinct, in a stable order
     */
    public Set<String> nodesFor(int partition, String topic, String publisherClientId) {
        Set<String> nodes = new TreeSet<>();
        index.forEachMatch(partition, topic, subscription -> {
            if (wants(subscription, publisherClientId)) {
                nodes.add(subscription.nodeId());
            }
        });
        return nodes;
    }

    private static boolean wants(SubscriptionRecord subscription, String publisherClientId) {
        // Offline sessions stay indexed but receive nothing here; queuing for them is a later step.
        if (!subscription.online()) {
            return false;
        }
        return !(subscription.noLocal() && subscription.clientId().equals(publisherClientId));
    }
}
