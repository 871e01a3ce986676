package io.tributary.session.internal;

import io.tributary.common.session.SubscribeApi;
import io.tributary.session.retained.RetainedLookup;
import io.tributary.session.subscription.SubscriptionService;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * A transport node's batch of SUBSCRIBEs: shape checks per request, the end of the publish topic read once for all
 * (every retained PUBLISH acknowledged before the batch arrived is below it), one transaction for the subscriptions,
 * then the retained messages of all of them (exact filters in one query).
 */
@Component
public class SubscribeBatches {

    private final SubscriptionService subscriptions;
    private final RetainedLookup retained;

    public SubscribeBatches(SubscriptionService subscriptions, RetainedLookup retained) {
        this.subscriptions = subscriptions;
        this.retained = retained;
    }

    public SubscribeApi.SubscribeBatchResponse subscribe(SubscribeApi.SubscribeBatch batch) {
        List<SubscribeApi.SubscribeRequest> requests = BatchCalls.checked(batch == null ? null : batch.requests());
        SubscribeApi.SubscribeOutcome[] outcomes = new SubscribeApi.SubscribeOutcome[requests.size()];
        List<Integer> valid = BatchCalls.wellFormed(
                "SUBSCRIBE",
                requests,
                InternalRequests::check,
                (i, why) -> outcomes[i] = new SubscribeApi.SubscribeOutcome(null, null, why));
        if (!valid.isEmpty()) {
            List<SubscribeApi.SubscribeRequest> accepted =
                    valid.stream().map(requests::get).toList();
            RetainedLookup.Mark mark = retained.mark(accepted);
            List<Object> results = BatchCalls.withDeadlockRetry(
                    "SUBSCRIBE", accepted.size(), () -> subscriptions.subscribeAll(accepted));
            List<RetainedLookup.Granted> granted = new ArrayList<>();
            List<Integer> grantedAt = new ArrayList<>();
            for (int k = 0; k < valid.size(); k++) {
                if (results.get(k) instanceof String stale) {
                    outcomes[valid.get(k)] = new SubscribeApi.SubscribeOutcome(null, stale, null);
                    continue;
                }
                SubscriptionService.Subscribed done = (SubscriptionService.Subscribed) results.get(k);
                granted.add(new RetainedLookup.Granted(accepted.get(k), done.reasonCodes(), done.created()));
                grantedAt.add(valid.get(k));
            }
            List<List<List<SubscribeApi.RetainedMessage>>> messages = retained.retainedForAll(granted, mark);
            for (int g = 0; g < granted.size(); g++) {
                outcomes[grantedAt.get(g)] = new SubscribeApi.SubscribeOutcome(
                        new SubscribeApi.SubscribeResponse(granted.get(g).reasonCodes(), messages.get(g)), null, null);
            }
        }
        return new SubscribeApi.SubscribeBatchResponse(List.of(outcomes));
    }
}
