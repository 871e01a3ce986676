package io.tributary.session.retained;

import io.tributary.common.session.SubscribeApi;
import io.tributary.common.topic.SharedFilters;
import io.tributary.common.topic.TopicFilters;
import io.tributary.session.config.SessionServiceProperties;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * The retained messages a SUBSCRIBE must deliver (MQTT section 3.3.1.3, 3.8.3.1): per granted subscription, the
 * unexpired retained messages its filter matches, honouring MQTT 5 Retain Handling (0 = send, 1 = only for a new
 * subscription, 2 = never), at most {@code maxPerSubscribe} for the whole packet.
 */
@Service
public class RetainedLookup {

    private static final Logger log = LoggerFactory.getLogger(RetainedLookup.class);

    /**
     * Where the retained topic ended when the SUBSCRIBE arrived, as asked of Kafka then and answered while the
     * subscriptions are written; {@code endOffsets} null when nothing needs retained messages.
     */
    public record Mark(CompletableFuture<Map<TopicPartition, Long>> endOffsets) {}

    private final RetainedCatchUp catchUp;
    private final RetainedStore store;
    private final RetainedMetrics metrics;
    private final Clock clock;
    private final int maxPerSubscribe;

    public RetainedLookup(
            RetainedCatchUp catchUp,
            RetainedStore store,
            RetainedMetrics metrics,
            Clock clock,
            SessionServiceProperties properties) {
        this.catchUp = catchUp;
        this.store = store;
        this.metrics = metrics;
        this.clock = clock;
        this.maxPerSubscribe = properties.retained().maxPerSubscribe();
    }

    /** To be called when the SUBSCRIBE arrives, before the subscriptions are written. */
    public Mark mark(SubscribeApi.SubscribeRequest request) {
        return mark(List.of(request));
    }

    /** {@link #mark} once for a batch of SUBSCRIBEs that arrived together. */
    public Mark mark(List<SubscribeApi.SubscribeRequest> requests) {
        if (requests.stream().flatMap(r -> r.subscriptions().stream()).allMatch(s -> s.retainHandling() == 2)) {
            return new Mark(null);
        }
        try {
            return new Mark(catchUp.mark());
        } catch (RuntimeException e) {
            return new Mark(CompletableFuture.failedFuture(e));
        }
    }

    /**
     * @param reasonCodes the SUBSCRIBE's answer, one per requested subscription
     * @param created     per requested subscription, whether it did not exist before
     * @return one list per requested subscription
     */
    public List<List<SubscribeApi.RetainedMessage>> retainedFor(
            SubscribeApi.SubscribeRequest request, Mark mark, List<Integer> reasonCodes, List<Boolean> created) {
        return retainedForAll(List.of(new Granted(request, reasonCodes, created)), mark)
                .get(0);
    }

    /** A SUBSCRIBE and what was granted: one reason code and one "did not exist before" per subscription. */
    public record Granted(SubscribeApi.SubscribeRequest request, List<Integer> reasonCodes, List<Boolean> created) {}

    /**
     * {@link #retainedFor} for a batch of SUBSCRIBEs: the store is awaited once, and the exact filters of the whole
     * batch are looked up in one query; wildcard filters keep one query each, bounded by their SUBSCRIBE's budget.
     *
     * @return per SUBSCRIBE, one list per requested subscription
     */
    public List<List<List<SubscribeApi.RetainedMessage>>> retainedForAll(List<Granted> batch, Mark mark) {
        return lookUp(batch, mark, true);
    }

    /**
     * {@link #retainedForAll} if it needs no wait: the end offsets of the mark are known and this instance's retained
     * store has written up to them already. Made for the SUBSCRIBE's own transaction, while it holds its row locks
     * and connection (one round trip and a second transaction less on the SUBACK path); the lookup's queries join it.
     *
     * @return null when the end offsets are not known yet or the store has not caught up: then {@link #retainedForAll}
     *         after the commit
     */
    public List<List<List<SubscribeApi.RetainedMessage>>> retainedForAllIfCaughtUp(List<Granted> batch, Mark mark) {
        CompletableFuture<Map<TopicPartition, Long>> ends = mark.endOffsets();
        if (ends != null && (!ends.isDone() || ends.isCompletedExceptionally() || !catchUp.reached(ends.join()))) {
            return null;
        }
        return lookUp(batch, mark, false);
    }

    private List<List<List<SubscribeApi.RetainedMessage>>> lookUp(List<Granted> batch, Mark mark, boolean await) {
        List<boolean[]> sends = new ArrayList<>(batch.size());
        Set<String> exactTopics = new HashSet<>();
        String firstClient = null;
        for (Granted g : batch) {
            List<SubscribeApi.Subscription> subscriptions = g.request().subscriptions();
            boolean[] send = new boolean[subscriptions.size()];
            for (int i = 0; i < send.length; i++) {
                SubscribeApi.Subscription s = subscriptions.get(i);
                // MQTT 5.0 section 4.8.2: retained messages are not sent for a shared subscription.
                send[i] = g.reasonCodes().get(i) <= 2
                        && !SharedFilters.isShared(s.filter())
                        && (s.retainHandling() == 0
                                || (s.retainHandling() == 1
                                        && Boolean.TRUE.equals(g.created().get(i))));
                if (send[i]) {
                    firstClient = firstClient == null ? g.request().clientId() : firstClient;
                    if (!TopicFilters.hasWildcard(s.filter())) {
                        exactTopics.add(s.filter());
                    }
                }
            }
            sends.add(send);
        }
        Instant now = null;
        Map<String, StoredRetained> exact = Map.of();
        if (firstClient != null) {
            if (await) {
                awaitStore(firstClient, mark);
            }
            now = clock.instant();
            exact = store.exact(exactTopics, now);
        }
        List<List<List<SubscribeApi.RetainedMessage>>> out = new ArrayList<>(batch.size());
        for (int k = 0; k < batch.size(); k++) {
            out.add(retainedFor(batch.get(k).request(), sends.get(k), exact, now));
        }
        return out;
    }

    /** One SUBSCRIBE's retained messages, at most {@code maxPerSubscribe} for the whole packet. */
    private List<List<SubscribeApi.RetainedMessage>> retainedFor(
            SubscribeApi.SubscribeRequest request, boolean[] send, Map<String, StoredRetained> exact, Instant now) {
        List<SubscribeApi.Subscription> subscriptions = request.subscriptions();
        List<List<SubscribeApi.RetainedMessage>> out = new ArrayList<>(subscriptions.size());
        int budget = maxPerSubscribe;
        for (int i = 0; i < subscriptions.size(); i++) {
            String filter = subscriptions.get(i).filter();
            if (!send[i] || budget == 0) {
                if (send[i]) {
                    metrics.capped();
                }
                out.add(List.of());
                continue;
            }
            List<StoredRetained> messages;
            if (TopicFilters.hasWildcard(filter)) {
                RetainedStore.Matches matches = store.matching(filter, now, budget);
                if (matches.capped()) {
                    metrics.capped();
                    log.warn(
                            "SUBSCRIBE of client {} to '{}': more than {} retained messages match; sending the "
                                    + "first {}",
                            request.clientId(),
                            filter,
                            maxPerSubscribe,
                            matches.messages().size());
                }
                messages = matches.messages();
            } else {
                StoredRetained m = exact.get(filter);
                messages = m == null ? List.of() : List.of(m);
            }
            budget -= messages.size();
            out.add(messages.stream().map(StoredRetained::toApi).toList());
            metrics.returned(messages.size());
        }
        return out;
    }

    private void awaitStore(String clientId, Mark mark) {
        if (mark.endOffsets() == null) {
            return;
        }
        Map<TopicPartition, Long> endOffsets;
        try {
            // Bounded by the catch-up timeout (RetainedCatchUp.mark).
            endOffsets = mark.endOffsets().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException e) {
            log.warn(
                    "Cannot read the end of the retained topic; retained messages of the SUBSCRIBE of client {} may "
                            + "miss the latest updates: {}",
                    clientId,
                    e.getCause().toString());
            return;
        }
        if (endOffsets.isEmpty()) {
            return;
        }
        try {
            if (!catchUp.await(endOffsets)) {
                metrics.catchUpTimedOut();
                log.warn(
                        "Retained store did not catch up with the publish topic in time for the SUBSCRIBE of "
                                + "client {}; answering with what it holds",
                        clientId);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
