package io.tributary.session.retained;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

import io.tributary.common.session.SessionApi;
import io.tributary.common.topic.SharedFilters;
import io.tributary.session.config.SessionServiceProperties;

/**
 * The retained messages a SUBSCRIBE must deliver (MQTT section 3.3.1.3, 3.8.3.1): per granted subscription, the
 * unexpired retained messages its filter matches, honouring MQTT 5 Retain Handling (0 = send, 1 = only for a new
 * subscription, 2 = never), at most {@code maxPerSubscribe} for the whole packet.
 */
@Service
public class RetainedLookup {

    private static final Logger log = LoggerFactory.getLogger(RetainedLookup.class);

    /** Where the publish topic ended when the SUBSCRIBE arrived; null when nothing needs retained messages. */
    public record Mark(Map<TopicPartition, Long> endOffsets) {
    }

    private final RetainedCatchUp catchUp;
    private final RetainedStore store;
    private final RetainedMetrics metrics;
    private final Clock clock;
    private final int maxPerSubscribe;

    public RetainedLookup(RetainedCatchUp catchUp, RetainedStore store, RetainedMetrics metrics, Clock clock,
            SessionServiceProperties properties) {
        this.catchUp = catchUp;
        this.store = store;
        this.metrics = metrics;
        this.clock = clock;
        this.maxPerSubscribe = properties.retained().maxPerSubscribe();
    }

    /** To be called when the SUBSCRIBE arrives, before the subscriptions are written. */
    public Mark mark(SessionApi.SubscribeRequest request) {
        return mark(List.of(request));
    }

    /** {@link #mark} once for a batch of SUBSCRIBEs that arrived together. */
    public Mark mark(List<SessionApi.SubscribeRequest> requests) {
        if (requests.stream().flatMap(r -> r.subscriptions().stream()).allMatch(s -> s.retainHandling() == 2)) {
            return new Mark(null);
        }
        try {
            return new Mark(catchUp.mark());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Mark(null);
        } catch (Exception e) {
            log.warn("Cannot read the end of the publish topic; retained messages of this SUBSCRIBE may miss the "
                    + "latest updates: {}", e.toString());
            return new Mark(Map.of());
        }
    }

    /**
     * @param reasonCodes the SUBSCRIBE's answer, one per requested subscription
     * @param created     per requested subscription, whether it did not exist before
     * @return one list per requested subscription
     */
    public List<List<SessionApi.RetainedMessage>> retainedFor(SessionApi.SubscribeRequest request, Mark mark,
            List<Integer> reasonCodes, List<Boolean> created) {
        List<SessionApi.Subscription> subscriptions = request.subscriptions();
        List<List<SessionApi.RetainedMessage>> out = new ArrayList<>(subscriptions.size());
        boolean waited = false;
        int budget = maxPerSubscribe;
        Instant now = null;
        for (int i = 0; i < subscriptions.size(); i++) {
            SessionApi.Subscription s = subscriptions.get(i);
            // MQTT 5.0 section 4.8.2: retained messages are not sent for a shared subscription.
            boolean send = reasonCodes.get(i) <= 2 && !SharedFilters.isShared(s.filter())
                    && (s.retainHandling() == 0
                            || (s.retainHandling() == 1 && Boolean.TRUE.equals(created.get(i))));
            if (!send || budget == 0) {
                if (send) {
                    metrics.capped();
                }
                out.add(List.of());
                continue;
            }
            if (!waited) {
                waited = true;
                awaitStore(request, mark);
                now = clock.instant();
            }
            RetainedStore.Matches matches = store.matching(s.filter(), now, budget);
            if (matches.capped()) {
                metrics.capped();
                log.warn("SUBSCRIBE of client {} to '{}': more than {} retained messages match; sending the first {}",
                        request.clientId(), s.filter(), maxPerSubscribe, matches.messages().size());
            }
            budget -= matches.messages().size();
            out.add(matches.messages().stream().map(StoredRetained::toApi).toList());
            metrics.returned(matches.messages().size());
        }
        return out;
    }

    private void awaitStore(SessionApi.SubscribeRequest request, Mark mark) {
        if (mark.endOffsets() == null || mark.endOffsets().isEmpty()) {
            return;
        }
        try {
            if (!catchUp.await(mark.endOffsets())) {
                metrics.catchUpTimedOut();
                log.warn("Retained store did not catch up with the publish topic in time for the SUBSCRIBE of "
                        + "client {}; answering with what it holds", request.clientId());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
