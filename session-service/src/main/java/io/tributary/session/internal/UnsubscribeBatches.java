package io.tributary.session.internal;

import io.tributary.common.session.SubscribeApi;
import io.tributary.session.subscription.SubscriptionService;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * A transport node's batch of UNSUBSCRIBEs: shape checks per request (a malformed one is answered unavailable and does
 * not hold up the others), then one transaction for all the well-formed ones.
 */
@Component
public class UnsubscribeBatches {

    private final SubscriptionService subscriptions;

    public UnsubscribeBatches(SubscriptionService subscriptions) {
        this.subscriptions = subscriptions;
    }

    public SubscribeApi.UnsubscribeBatchResponse unsubscribe(SubscribeApi.UnsubscribeBatch batch) {
        List<SubscribeApi.UnsubscribeRequest> requests = BatchCalls.checked(batch == null ? null : batch.requests());
        SubscribeApi.UnsubscribeOutcome[] outcomes = new SubscribeApi.UnsubscribeOutcome[requests.size()];
        List<Integer> valid = BatchCalls.wellFormed(
                "UNSUBSCRIBE",
                requests,
                InternalRequests::check,
                (i, why) -> outcomes[i] = new SubscribeApi.UnsubscribeOutcome(null, null, why));
        if (!valid.isEmpty()) {
            List<SubscribeApi.UnsubscribeRequest> accepted =
                    valid.stream().map(requests::get).toList();
            List<SubscriptionService.UnsubscribeResult> results = BatchCalls.withDeadlockRetry(
                    "UNSUBSCRIBE", accepted.size(), () -> subscriptions.unsubscribeAll(accepted));
            for (int k = 0; k < valid.size(); k++) {
                outcomes[valid.get(k)] = results.get(k) instanceof SubscriptionService.Stale stale
                        ? new SubscribeApi.UnsubscribeOutcome(null, stale.reason(), null)
                        : new SubscribeApi.UnsubscribeOutcome(
                                ((SubscriptionService.Unsubscribed) results.get(k)).response(), null, null);
            }
        }
        return new SubscribeApi.UnsubscribeBatchResponse(List.of(outcomes));
    }
}
