package io.tributary.session.internal;

import io.tributary.common.session.SessionApi;
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

    public SessionApi.UnsubscribeBatchResponse unsubscribe(SessionApi.UnsubscribeBatch batch) {
        List<SessionApi.UnsubscribeRequest> requests = BatchCalls.checked(batch == null ? null : batch.requests());
        SessionApi.UnsubscribeOutcome[] outcomes = new SessionApi.UnsubscribeOutcome[requests.size()];
        List<Integer> valid = BatchCalls.wellFormed(
                "UNSUBSCRIBE",
                requests,
                InternalRequests::check,
                (i, why) -> outcomes[i] = new SessionApi.UnsubscribeOutcome(null, null, why));
        if (!valid.isEmpty()) {
            List<SessionApi.UnsubscribeRequest> accepted =
                    valid.stream().map(requests::get).toList();
            List<Object> results = BatchCalls.withDeadlockRetry(
                    "UNSUBSCRIBE", accepted.size(), () -> subscriptions.unsubscribeAll(accepted));
            for (int k = 0; k < valid.size(); k++) {
                outcomes[valid.get(k)] = results.get(k) instanceof String stale
                        ? new SessionApi.UnsubscribeOutcome(null, stale, null)
                        : new SessionApi.UnsubscribeOutcome(
                                (SessionApi.UnsubscribeResponse) results.get(k), null, null);
            }
        }
        return new SessionApi.UnsubscribeBatchResponse(List.of(outcomes));
    }
}
