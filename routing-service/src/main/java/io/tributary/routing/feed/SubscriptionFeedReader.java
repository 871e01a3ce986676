package io.tributary.routing.feed;

import io.tributary.common.kafka.TopicNames;
import io.tributary.routing.index.SubscriptionChange;
import io.tributary.routing.index.SubscriptionIndex;
import io.tributary.routing.metrics.RoutingMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Keeps the {@link SubscriptionIndex} in step with the subscription feed. Owns the feed consumer, which has no
 * group: it is assigned every partition of the wildcard topic, and partition p of the exact topic for each publish
 * partition p the router owns, each read from the beginning (compacted topics: the beginning is the whole state).
 *
 * <p>Used only by the routing loop thread.
 */
public final class SubscriptionFeedReader {

    private static final Duration CATCH_UP_POLL = Duration.ofMillis(100);

    private final Consumer<byte[], byte[]> consumer;
    private final FeedEndOffsets endOffsets;
    private final SubscriptionIndex index;
    private final RoutingMetrics metrics;
    private final MalformedRecordLog malformed = new MalformedRecordLog();
    private final SessionArrivals arrivals = new SessionArrivals();
    private final Set<TopicPartition> wildcardPartitions = new HashSet<>();
    private final Set<TopicPartition> exactPartitions = new HashSet<>();

    public SubscriptionFeedReader(
            Consumer<byte[], byte[]> consumer,
            FeedEndOffsets endOffsets,
            SubscriptionIndex index,
            RoutingMetrics metrics) {
        this.consumer = consumer;
        this.endOffsets = endOffsets;
        this.index = index;
        this.metrics = metrics;
    }

    /** Assigns every partition of the wildcard topic, from the beginning. */
    public void assignWildcardPartitions(Duration timeout) {
        List<PartitionInfo> infos = consumer.partitionsFor(TopicNames.SUBSCRIPTIONS_WILDCARD, timeout);
        if (infos == null || infos.isEmpty()) {
            throw new TimeoutException("no partition metadata for " + TopicNames.SUBSCRIPTIONS_WILDCARD);
        }
        List<TopicPartition> added = new ArrayList<>();
        for (PartitionInfo info : infos) {
            TopicPartition tp = new TopicPartition(info.topic(), info.partition());
            if (wildcardPartitions.add(tp)) {
                added.add(tp);
            }
        }
        reassign(added);
    }

    /** Starts indexing the exact subscriptions of newly owned publish partitions; read on the next catch-up. */
    public void addExactPartitions(Collection<Integer> partitions) {
        List<TopicPartition> added = new ArrayList<>();
        for (int p : partitions) {
            index.ownPartition(p);
            TopicPartition tp = new TopicPartition(TopicNames.SUBSCRIPTIONS_EXACT, p);
            if (exactPartitions.add(tp)) {
                added.add(tp);
            }
        }
        reassign(added);
    }

    /** Stops indexing the exact subscriptions of publish partitions another router owns now. */
    public void removeExactPartitions(Collection<Integer> partitions) {
        boolean changed = false;
        for (int p : partitions) {
            index.dropPartition(p);
            changed |= exactPartitions.remove(new TopicPartition(TopicNames.SUBSCRIPTIONS_EXACT, p));
        }
        if (changed) {
            reassign(List.of());
        }
    }

    /**
     * Reads the feed until every assigned partition reaches the end offset it had when this call started, so that
     * every subscription acknowledged before now is in the index. Called before routing each batch: a client that
     * got its SUBACK before a message was published must receive that message. The end offsets come from the Admin
     * client ({@link FeedEndOffsets} says why not from the consumer).
     *
     * @throws TimeoutException when Kafka does not answer or the feed is not read to its end within {@code timeout}
     */
    public void catchUp(Duration timeout) {
        Set<TopicPartition> assigned = consumer.assignment();
        if (assigned.isEmpty()) {
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Long> pending = new HashMap<>(endOffsets.of(assigned, timeout));
        while (true) {
            pending.entrySet().removeIf(end -> consumer.position(end.getKey(), remaining(deadline)) >= end.getValue());
            if (pending.isEmpty()) {
                return;
            }
            Duration remaining = remaining(deadline);
            if (remaining.isZero()) {
                throw new TimeoutException("subscription feed not read up to its end offsets within " + timeout
                        + "; behind on " + pending.keySet());
            }
            apply(consumer.poll(remaining.compareTo(CATCH_UP_POLL) < 0 ? remaining : CATCH_UP_POLL));
        }
    }

    /** Applies whatever the feed consumer has ready, without waiting; keeps an idle router current. */
    public void applyAvailable() {
        if (!consumer.assignment().isEmpty()) {
            apply(consumer.poll(Duration.ZERO));
        }
    }

    private void apply(ConsumerRecords<byte[], byte[]> records) {
        long now = System.currentTimeMillis();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            SubscriptionChange change;
            try {
                change = SubscriptionChange.decode(record.topic(), record.partition(), record.key(), record.value());
            } catch (RuntimeException e) {
                if (malformed.report(record.topic(), record.partition(), record.offset(), e)) {
                    metrics.malformedSubscription();
                }
                continue;
            }
            if (change.exact() && !index.ownsPartition(change.partition())) {
                // Raced with the partition's revocation: another router owns it now.
                continue;
            }
            arrivals.applied(
                    index.apply(change), change.removal() ? null : change.subscription(), record.timestamp(), now);
        }
    }

    /**
     * Persistent sessions whose connection the applied feed placed on a node since the last call (client id to
     * node): see {@link SessionArrivals}.
     */
    public Map<String, String> drainArrivals() {
        return arrivals.drain();
    }

    private void reassign(List<TopicPartition> fromBeginning) {
        Set<TopicPartition> all = new HashSet<>(wildcardPartitions);
        all.addAll(exactPartitions);
        consumer.assign(all);
        if (!fromBeginning.isEmpty()) {
            consumer.seekToBeginning(fromBeginning);
        }
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }
}
