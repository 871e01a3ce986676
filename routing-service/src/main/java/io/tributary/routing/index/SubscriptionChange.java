package io.tributary.routing.index;

import io.tributary.common.kafka.TopicNames;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.common.topic.SharedFilters;
import io.tributary.common.topic.TopicFilters;

/**
 * One record of the subscription feed, checked and decoded: the subscription of {@code clientId} to {@code filter}
 * now has state {@code subscription}, or is gone when {@code subscription} is {@code null} (tombstone).
 *
 * @param exact whether the record came from the exact-subscription topic (else from the wildcard one)
 * @param partition partition of the record; for exact subscriptions, the publish partition it serves
 */
public record SubscriptionChange(
        boolean exact, int partition, String filter, String clientId, SubscriptionRecord subscription) {

    public boolean removal() {
        return subscription == null;
    }

    /**
     * Decodes a feed record.
     *
     * @throws IllegalArgumentException when the record does not follow the feed's format; the caller skips it
     */
    public static SubscriptionChange decode(String topic, int partition, byte[] key, byte[] value) {
        boolean exact;
        if (TopicNames.SUBSCRIPTIONS_EXACT.equals(topic)) {
            exact = true;
        } else if (TopicNames.SUBSCRIPTIONS_WILDCARD.equals(topic)) {
            exact = false;
        } else {
            throw new IllegalArgumentException("not a subscription topic: " + topic);
        }
        if (key == null) {
            throw new IllegalArgumentException("record without key");
        }
        String[] filterAndClient = SubscriptionRecord.parseKey(key);
        String filter = filterAndClient[0];
        String clientId = filterAndClient[1];
        String problem = SharedFilters.isShared(filter)
                ? SharedFilters.problem(filter)
                : TopicFilters.topicFilterProblem(filter);
        if (problem != null) {
            throw new IllegalArgumentException("invalid filter in key: " + problem);
        }
        if (TopicFilters.hasWildcard(SharedFilters.innerFilter(filter)) == exact) {
            throw new IllegalArgumentException("filter '" + filter + "' does not belong on " + topic);
        }
        if (value == null) {
            return new SubscriptionChange(exact, partition, filter, clientId, null);
        }
        SubscriptionRecord subscription = SubscriptionRecord.decode(value);
        if (!subscription.filter().equals(filter) || !subscription.clientId().equals(clientId)) {
            throw new IllegalArgumentException("value names '" + subscription.filter() + "' of '"
                    + subscription.clientId() + "' but the key names '" + filter + "' of '" + clientId + "'");
        }
        if (subscription.online()) {
            // Rejects a node id that cannot name a downlink topic, so fan-out never meets one.
            TopicNames.downlink(subscription.nodeId());
        }
        return new SubscriptionChange(exact, partition, filter, clientId, subscription);
    }
}
