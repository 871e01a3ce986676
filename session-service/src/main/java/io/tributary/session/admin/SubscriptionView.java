package io.tributary.session.admin;

import io.tributary.session.store.StoredSubscription;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

public record SubscriptionView(
        String filter,
        int qos,
        boolean noLocal,
        boolean retainAsPublished,
        int retainHandling,
        @Nullable Integer subscriptionId,
        Instant createdAt) {

    static SubscriptionView of(StoredSubscription s) {
        return new SubscriptionView(
                s.filter(),
                s.qos(),
                s.noLocal(),
                s.retainAsPublished(),
                s.retainHandling(),
                s.subscriptionId(),
                s.createdAt());
    }
}
