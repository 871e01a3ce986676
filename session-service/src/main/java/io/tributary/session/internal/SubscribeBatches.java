package io.tributary.session.internal;

import io.tributary.common.session.SubscribeApi;
import io.tributary.session.retained.RetainedLookup;
import io.tributary.session.subscription.SubscriptionService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;

/**
 * A transport node's batch of SUBSCRIBEs: shape checks per request, the end of the publish topic read once for all
 * (every retained PUBLISH acknowledged before the batch arrived is below it), one transaction for the subscriptions,
 * and the retained messages of all of them (exact filters in one query): in that transaction once the feed records
 * are acknowledged when the retained store has caught up by then (the usual case), else after the commit, waiting
 * for the store.
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
            // The retained messages looked up in the SUBSCRIBE's transaction; null: not (yet), look up after it.
            AtomicReference<List<List<List<SubscribeApi.RetainedMessage>>>> early = new AtomicReference<>();
            List<SubscriptionService.SubscribeResult> results =
                    BatchCalls.withDeadlockRetry("SUBSCRIBE", accepted.size(), () -> {
                        early.set(null);
                        return subscriptions.subscribeAll(
                                accepted,
                                done -> early.set(retained.retainedForAllIfCaughtUp(granted(accepted, done), mark)));
                    });
            List<RetainedLookup.Granted> granted = granted(accepted, results);
            List<List<List<SubscribeApi.RetainedMessage>>> messages =
                    early.get() == null ? retained.retainedForAll(granted, mark) : early.get();
            int g = 0;
            for (int k = 0; k < valid.size(); k++) {
                if (results.get(k) instanceof SubscriptionService.Stale stale) {
                    outcomes[valid.get(k)] = new SubscribeApi.SubscribeOutcome(null, stale.reason(), null);
                } else {
                    outcomes[valid.get(k)] = new SubscribeApi.SubscribeOutcome(
                            new SubscribeApi.SubscribeResponse(granted.get(g).reasonCodes(), messages.get(g)),
                            null,
                            null);
                    g++;
                }
            }
        }
        return new SubscribeApi.SubscribeBatchResponse(List.of(outcomes));
    }

    /** The SUBSCRIBEs that were not stale, in order, with what each was granted. */
    private static List<RetainedLookup.Granted> granted(
            List<SubscribeApi.SubscribeRequest> requests, List<SubscriptionService.SubscribeResult> outcomes) {
        List<RetainedLookup.Granted> granted = new ArrayList<>();
        for (int k = 0; k < requests.size(); k++) {
            if (outcomes.get(k) instanceof SubscriptionService.Subscribed done) {
                granted.add(new RetainedLookup.Granted(requests.get(k), done.reasonCodes(), done.created()));
            }
        }
        return granted;
    }
}
