package io.tributary.session.store;

import io.tributary.common.session.SubscribeApi;
import io.tributary.common.subscription.SubscriptionRecord;
import java.time.Instant;

/** One row of the subscriptions table. */
public record StoredSubscription(
        String clientId,
        String filter,
        int qos,
        boolean noLocal,
        boolean retainAsPublished,
        int retainHandling,
        Integer subscriptionId,
        Instant createdAt) {

    /**
     * The feed record of this subscription for a session on {@code nodeId} (null = offline) at {@code epoch};
     * {@code persistent} when the session outlives its connection (its messages then go through its queue).
     */
    public SubscriptionRecord toRecord(String nodeId, long epoch, boolean persistent) {
        return new SubscriptionRecord(
                clientId, filter, nodeId, qos, noLocal, retainAsPublished, retainHandling, epoch, persistent);
    }

    public SubscribeApi.Subscription toApi() {
        return new SubscribeApi.Subscription(filter, qos, noLocal, retainAsPublished, retainHandling, subscriptionId);
    }
}
