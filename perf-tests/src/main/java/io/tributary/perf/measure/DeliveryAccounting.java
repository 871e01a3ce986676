package io.tributary.perf.measure;

import io.tributary.perf.scenario.PublisherGroup;
import io.tributary.perf.scenario.Scenario;
import io.tributary.perf.scenario.SubscriberGroup;
import io.tributary.perf.scenario.TopicFilterMatcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a {@link Ledger} into sent / expected / received / lost / duplicated counts. A stream is one (publisher,
 * subscriber) pair; its expected count is what the publisher sent in the measured window on topics the subscriber's
 * filter matches. Loss is counted per stream, so a surplus on one stream never hides a loss on another.
 */
public final class DeliveryAccounting {

    /**
     * @param complete   false when the ledger lacks one side (a publishers-only or subscribers-only result): then
     *                   expected may be known but lost and unexpected are not
     * @param unexpected distinct measured messages received on a stream that expected fewer (or none)
     */
    public record Delivery(
            long sent,
            long expected,
            long received,
            long lost,
            long duplicates,
            long unexpected,
            long streams,
            long streamsWithLoss,
            boolean complete) {

        public double lossRatio() {
            return expected == 0 ? 0 : (double) lost / expected;
        }
    }

    private DeliveryAccounting() {}

    public static Delivery compute(
            Scenario scenario, String runId, Ledger ledger, boolean hasPublisherSide, boolean hasSubscriberSide) {
        String[] filters = subscriberFilters(scenario, runId);
        SentSide sentSide = sentSide(scenario, runId, ledger, filters);
        Map<Integer, long[]> sentById = sentSide.sentById();
        Map<Integer, String[]> topicsById = sentSide.topicsById();

        Map<Long, long[]> streams = streams(ledger);
        long received = 0;
        long duplicates = 0;
        long matched = 0;
        long unexpected = 0;
        long streamsWithLoss = 0;
        for (Map.Entry<Long, long[]> e : streams.entrySet()) {
            int publisherId = (int) (e.getKey() >>> 32);
            int subscriberId = (int) (long) e.getKey();
            long unique = e.getValue()[0];
            received += unique;
            duplicates += e.getValue()[1];
            long streamExpected = 0;
            long[] slots = sentById.get(publisherId);
            if (slots != null && subscriberId >= 0 && subscriberId < filters.length) {
                streamExpected = streamExpected(slots, topicsById.get(publisherId), filters[subscriberId]);
            }
            matched += Math.min(streamExpected, unique);
            unexpected += Math.max(0, unique - streamExpected);
            if (unique < streamExpected) {
                streamsWithLoss++;
            }
        }
        boolean complete = hasPublisherSide && hasSubscriberSide;
        long lost = complete ? sentSide.expected() - matched : 0;
        if (complete && lost > 0) {
            // Streams that expected messages but never received one are not in the ledger; count them as well.
            streamsWithLoss += missingStreams(sentById, topicsById, filters, streams);
        }
        return new Delivery(
                sentSide.sent(),
                sentSide.expected(),
                received,
                lost,
                duplicates,
                complete ? unexpected : 0,
                streams.size(),
                streamsWithLoss,
                complete);
    }

    /**
     * What the publishers of the ledger sent, per publisher id and slot with each slot's topic (ids the scenario does
     * not have are left out), in total, and how many deliveries that total calls for given the subscribers' filters.
     */
    private record SentSide(
            Map<Integer, long[]> sentById, Map<Integer, String[]> topicsById, long sent, long expected) {}

    private static SentSide sentSide(Scenario scenario, String runId, Ledger ledger, String[] filters) {
        Map<String, Integer> exactCounts = new HashMap<>();
        List<String> wildcardFilters = new ArrayList<>();
        for (String f : filters) {
            if (TopicFilterMatcher.hasWildcard(f)) {
                wildcardFilters.add(f);
            } else {
                exactCounts.merge(f, 1, Integer::sum);
            }
        }

        Map<Integer, long[]> sentById = new HashMap<>();
        Map<Integer, String[]> topicsById = new HashMap<>();
        long sent = 0;
        long expected = 0;
        Map<String, Long> matchCache = new HashMap<>();
        for (Ledger.PublisherSent p : ledger.publishers()) {
            String[] topics = publisherTopics(scenario, runId, p.publisherId());
            if (topics == null) {
                continue;
            }
            sentById.merge(p.publisherId(), p.sentPerSlot().clone(), DeliveryAccounting::addInto);
            topicsById.put(p.publisherId(), topics);
            for (int k = 0; k < p.sentPerSlot().length && k < topics.length; k++) {
                long slotSent = p.sentPerSlot()[k];
                if (slotSent == 0) {
                    continue;
                }
                sent += slotSent;
                long matching =
                        matchCache.computeIfAbsent(topics[k], t -> countMatching(t, exactCounts, wildcardFilters));
                expected += slotSent * matching;
            }
        }
        return new SentSide(sentById, topicsById, sent, expected);
    }

    /**
     * The ledger's streams as (publisher id, subscriber id) packed in one long, to {unique, duplicates}; a stream
     * listed more than once (by several parts of a merged result) is added up.
     */
    private static Map<Long, long[]> streams(Ledger ledger) {
        Map<Long, long[]> streams = new HashMap<>();
        long[] raw = ledger.streams();
        for (int i = 0; i < raw.length; i += 4) {
            long key = (raw[i] << 32) | (raw[i + 1] & 0xFFFF_FFFFL);
            streams.merge(key, new long[] {raw[i + 2], raw[i + 3]}, DeliveryAccounting::addInto);
        }
        return streams;
    }

    /** What one publisher sent on the topics one subscriber's filter matches. */
    private static long streamExpected(long[] slots, String[] topics, String filter) {
        long streamExpected = 0;
        for (int k = 0; k < slots.length && k < topics.length; k++) {
            if (slots[k] > 0 && TopicFilterMatcher.matches(filter, topics[k])) {
                streamExpected += slots[k];
            }
        }
        return streamExpected;
    }

    private static long missingStreams(
            Map<Integer, long[]> sentById,
            Map<Integer, String[]> topicsById,
            String[] filters,
            Map<Long, long[]> seen) {
        Map<String, List<Integer>> exactIndex = new HashMap<>();
        List<Integer> wildcardIds = new ArrayList<>();
        for (int s = 0; s < filters.length; s++) {
            if (TopicFilterMatcher.hasWildcard(filters[s])) {
                wildcardIds.add(s);
            } else {
                exactIndex.computeIfAbsent(filters[s], f -> new ArrayList<>()).add(s);
            }
        }
        long missing = 0;
        for (Map.Entry<Integer, long[]> p : sentById.entrySet()) {
            String[] topics = topicsById.get(p.getKey());
            Set<Integer> expectedFrom = new HashSet<>();
            for (int k = 0; k < topics.length && k < p.getValue().length; k++) {
                if (p.getValue()[k] == 0) {
                    continue;
                }
                expectedFrom.addAll(exactIndex.getOrDefault(topics[k], List.of()));
                for (int s : wildcardIds) {
                    if (TopicFilterMatcher.matches(filters[s], topics[k])) {
                        expectedFrom.add(s);
                    }
                }
            }
            for (int s : expectedFrom) {
                if (!seen.containsKey(((long) p.getKey() << 32) | (s & 0xFFFF_FFFFL))) {
                    missing++;
                }
            }
        }
        return missing;
    }

    private static long countMatching(String topic, Map<String, Integer> exactCounts, List<String> wildcards) {
        long count = exactCounts.getOrDefault(topic, 0);
        for (String f : wildcards) {
            if (TopicFilterMatcher.matches(f, topic)) {
                count++;
            }
        }
        return count;
    }

    /** Filter of every subscribing client, indexed by global subscriber id. */
    static String[] subscriberFilters(Scenario scenario, String runId) {
        String[] filters = new String[scenario.subscriberCount()];
        for (SubscriberGroup g : scenario.subscribers()) {
            for (int n = 0; n < g.client().count(); n++) {
                filters[g.firstId() + n] = g.filterFor(n, runId);
            }
        }
        for (PublisherGroup g : scenario.publishers()) {
            if (g.subscribes()) {
                for (int n = 0; n < g.client().count(); n++) {
                    filters[g.firstSubscriberId() + n] = g.filterFor(n, runId);
                }
            }
        }
        return filters;
    }

    /** Topics of one publisher by slot, or null for an id the scenario does not have. */
    static String[] publisherTopics(Scenario scenario, String runId, int publisherId) {
        for (PublisherGroup g : scenario.publishers()) {
            int n = publisherId - g.firstId();
            if (n >= 0 && n < g.client().count()) {
                String[] topics = new String[g.topicsPerPublisher()];
                for (int k = 0; k < topics.length; k++) {
                    topics[k] = g.topicFor(n, k, runId);
                }
                return topics;
            }
        }
        return null;
    }

    private static long[] addInto(long[] a, long[] b) {
        long[] sum = a.length >= b.length ? a.clone() : b.clone();
        long[] other = a.length >= b.length ? b : a;
        for (int i = 0; i < other.length; i++) {
            sum[i] += other[i];
        }
        return sum;
    }
}
