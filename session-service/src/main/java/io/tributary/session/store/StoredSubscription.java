package io.tributary.session.store;

import java.time.Instant;

import io.tributary.common.session.SessionApi;
import io.tributary.common.subscription.SubscriptionRecord;

/** One row of {@code subscriptions}. */
public record StoredSubscription(
        String clientId,
        String filter,
        int qos,
        boolean noLocal,
        boolean retainAsPublished,
        int retainHandling,
        Integer subscriptionId,
        Instant createdAt) {

    /** The feed record of this subscription for a session on {@code nodeId} (null = offline) at {@code epoch}. */
    public SubscriptionRecord toRecord(String nodeId, long epoch) {
        return new SubscriptionRecord(clientId, filter, nodeId, qos, noLocal, retainAsPublished, retainHandling,
                epoch);
    }

    public SessionApi.Subscription toApi() {
        return new SessionApi.Subscription(filter, qos, noLocal, retainAsPublished, retainHandling, subscriptionId);
    }
}
