package io.tributary.session.internal;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.stereotype.Component;

import io.tributary.common.session.SessionApi;
import io.tributary.session.retained.RetainedLookup;
import io.tributary.session.subscription.SubscriptionService;
import io.tributary.session.web.ApiException;

/**
 * A transport node's batch of SUBSCRIBEs: shape checks per request, the end of the publish topic read once for all
 * (every retained PUBLISH acknowledged before the batch arrived is below it), one transaction for the subscriptions,
 * then each request's retained messages.
 */
@Component
public class SubscribeBatches {

    private static final Logger log = LoggerFactory.getLogger(SubscribeBatches.class);
    private static final int ATTEMPTS = 3;

    private final SubscriptionService subscriptions;
    private final RetainedLookup retained;

    public SubscribeBatches(SubscriptionService subscriptions, RetainedLookup retained) {
        this.subscriptions = subscriptions;
        this.retained = retained;
    }

    public SessionApi.SubscribeBatchResponse subscribe(SessionApi.SubscribeBatch batch) {
        if (batch == null || batch.requests() == null) {
            throw ApiException.badRequest("requests are required");
        }
        List<SessionApi.SubscribeRequest> requests = batch.requests();
        if (requests.size() > ConnectBatches.MAX_BATCH) {
            throw ApiException.badRequest("at most " + ConnectBatches.MAX_BATCH + " requests per batch: "
                    + requests.size());
        }
        SessionApi.SubscribeOutcome[] outcomes = new SessionApi.SubscribeOutcome[requests.size()];
        List<Integer> valid = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            try {
                InternalRequests.check(requests.get(i));
                valid.add(i);
            } catch (ApiException e) {
                log.warn("SUBSCRIBE request of a batch is malformed: {}", e.getMessage());
                outcomes[i] = new SessionApi.SubscribeOutcome(null, null, "malformed request: " + e.getMessage());
            }
        }
        if (!valid.isEmpty()) {
            List<SessionApi.SubscribeRequest> accepted = valid.stream().map(requests::get).toList();
            RetainedLookup.Mark mark = retained.mark(accepted);
            List<Object> results = subscribeWithRetry(accepted);
            for (int k = 0; k < valid.size(); k++) {
                SessionApi.SubscribeRequest request = accepted.get(k);
                if (results.get(k) instanceof String stale) {
                    outcomes[valid.get(k)] = new SessionApi.SubscribeOutcome(null, stale, null);
                    continue;
                }
                SubscriptionService.Subscribed done = (SubscriptionService.Subscribed) results.get(k);
                outcomes[valid.get(k)] = new SessionApi.SubscribeOutcome(new SessionApi.SubscribeResponse(
                        done.reasonCodes(), retained.retainedFor(request, mark, done.reasonCodes(), done.created())),
                        null, null);
            }
        }
        return new SessionApi.SubscribeBatchResponse(List.of(outcomes));
    }

    private List<Object> subscribeWithRetry(List<SessionApi.SubscribeRequest> requests) {
        for (int attempt = 1;; attempt++) {
            try {
                return subscriptions.subscribeAll(requests);
            } catch (PessimisticLockingFailureException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
                log.info("SUBSCRIBE batch of {} lost a lock conflict (attempt {}): {}", requests.size(), attempt,
                        e.getMostSpecificCause().getMessage());
            }
        }
    }
}
