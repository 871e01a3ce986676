package io.tributary.routing.fanout;

import io.tributary.common.subscription.SharedTargets;
import java.util.List;
import java.util.SortedMap;

/**
 * Where one publish goes.
 *
 * @param nodes  node id → the share-group members chosen on that node that get the message straight from the
 *               downlink record (empty when the node receives it for its normal subscriptions only); every node
 *               that serves a queued client is in it too, so that client is woken up
 * @param queued persistent sessions that get the message through their session queue (QoS 1 or 2 after the
 *               downgrade to their subscription's maximum), online or not
 */
public record DeliveryPlan(SortedMap<String, List<SharedTargets.Target>> nodes, List<QueueTarget> queued) {

    /**
     * @param nodeId        node the session is connected to, {@code null} when it is offline
     * @param sharedFilters full {@code $share/g/f} filters of the share groups that chose this session, U+0000
     *                      separated; empty when it gets the message for its normal subscriptions only
     */
    public record QueueTarget(String clientId, String nodeId, String sharedFilters) {}
}
