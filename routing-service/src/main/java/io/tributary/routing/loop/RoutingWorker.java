package io.tributary.routing.loop;

import io.tributary.common.kafka.CommitPacer;
import io.tributary.common.kafka.TopicNames;
import io.tributary.routing.fanout.DeliveryFailedException;
import io.tributary.routing.fanout.DownlinkFanout;
import io.tributary.routing.fanout.DownlinkTopicCache;
import io.tributary.routing.feed.FeedConsumers;
import io.tributary.routing.feed.SubscriptionFeedReader;
import io.tributary.routing.index.SubscriptionIndex;
import io.tributary.routing.metrics.RoutingMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One incarnation of the routing loop with its two consumers: polls publishes, brings the subscription index up to
 * the feed's end, routes the batch, commits it. Lives on the loop thread only; a new one (with a fresh index) is made
 * when the previous one failed in a way it could not retry by itself.
 *
 * <p>Ordering rule: a batch of publishes is routed only after the feed has been read up to the end offsets it had
 * after the batch was polled. Session-service answers SUBSCRIBE only once the feed record is acknowledged, so a
 * client that got its SUBACK before a message was published is in the index when that message is routed.
 *
 * <p>Pipelining: a batch's downlink records are sent, and their acknowledgements awaited only after the next batch
 * is polled and the feed caught up for it (one Kafka round trip each), so the two round trips overlap instead of
 * adding up: under a burst the routing thread waited for them one after the other, 15-200 ms each on a busy 2-core
 * machine (JFR, issue 33). At most one batch is in flight; it is settled before the next is sent, before partitions
 * are revoked, when the worker closes, and when a poll finds nothing new. When it fails, it and the batch read after
 * it are read and routed again (at least once towards nodes, as after a crash).
 *
 * <p>Latency and cost: the offsets of batches whose downlink records are all acknowledged are committed
 * asynchronously, at most once per commit interval (each commit is a write to the group coordinator's log), so the
 * next poll never waits for the coordinator; the offsets routed so far are committed synchronously before partitions
 * are revoked and when the worker closes, so that the next owner does not route them again. A failed asynchronous
 * commit loses nothing: a later commit covers it, or the batches since the last commit are routed again after a
 * crash (at least once).
 */
final class RoutingWorker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RoutingWorker.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    /** What the worker needs from its environment; one per process, shared by successive workers. */
    record Settings(
            Duration pollTimeout, Duration feedCatchUpTimeout, Duration requestTimeout, Duration commitInterval) {}

    private final Settings settings;
    private final SubscriptionIndex index;
    private final RoutingMetrics metrics;
    private final RoutingStatus status;
    private final RetryPolicy retry;
    private final DownlinkTopicCache downlinkTopics;
    private final DownlinkFanout fanout;
    private final BooleanSupplier running;
    private final Consumer<byte[], byte[]> publishConsumer;
    private final Consumer<byte[], byte[]> subscriptionConsumer;
    private final SubscriptionFeedReader feed;
    /** Kafka's client metrics of this worker's two consumers; removed when they close. */
    private final AutoCloseable kafkaClientMetrics;
    /** Per partition, the offset after the last publish whose outputs were acknowledged. */
    private final Map<TopicPartition, OffsetAndMetadata> routed = new HashMap<>();
    /** Paces the asynchronous commits of {@link #routed}. */
    private final CommitPacer commits;
    /** The batch whose downlink records are sent and not yet acknowledged; null when none. */
    private DownlinkFanout.InFlight inFlight;

    RoutingWorker(
            Settings settings,
            FeedConsumers consumers,
            SubscriptionIndex index,
            RoutingMetrics metrics,
            RoutingStatus status,
            RetryPolicy retry,
            DownlinkTopicCache downlinkTopics,
            DownlinkFanout fanout,
            BooleanSupplier running) {
        this.settings = settings;
        this.index = index;
        this.metrics = metrics;
        this.status = status;
        this.retry = retry;
        this.downlinkTopics = downlinkTopics;
        this.fanout = fanout;
        this.running = running;
        this.commits = new CommitPacer(settings.commitInterval());
        this.publishConsumer = consumers.publishConsumer();
        Consumer<byte[], byte[]> feedConsumer;
        try {
            feedConsumer = consumers.subscriptionConsumer();
        } catch (RuntimeException e) {
            publishConsumer.close(CloseOptions.timeout(Duration.ZERO));
            throw e;
        }
        this.subscriptionConsumer = feedConsumer;
        metrics.watchConsumerLag(publishConsumer);
        this.kafkaClientMetrics = metrics.bindKafkaClients(publishConsumer, subscriptionConsumer);
        this.feed = new SubscriptionFeedReader(subscriptionConsumer, consumers.feedEndOffsets(), index, metrics);
    }

    /** Routes until the service stops; throws what it cannot retry by itself (the caller starts a new worker). */
    void run() {
        index.clear();
        feed.assignWildcardPartitions(settings.requestTimeout());
        publishConsumer.subscribe(List.of(TopicNames.PUBLISH), new OwnershipListener());
        retry.succeeded();
        while (running.getAsBoolean()) {
            // With a batch in flight, take what is already here and settle the batch if nothing is.
            ConsumerRecords<byte[], byte[]> batch =
                    publishConsumer.poll(inFlight == null ? settings.pollTimeout() : Duration.ZERO);
            long polledAt = System.nanoTime();
            downlinkTopics.refreshIfDue();
            if (batch.isEmpty()) {
                settleInFlight(true);
                commitIfDue();
                feed.applyAvailable();
                fanout.wakeArrivals(feed.drainArrivals());
                continue;
            }
            long now = System.currentTimeMillis();
            for (ConsumerRecord<byte[], byte[]> publish : batch) {
                metrics.publishConsumed(now - publish.timestamp());
            }
            routeBatch(batch, polledAt);
        }
    }

    /** Makes a blocked poll return at once (with a {@link WakeupException}); callable from any thread. */
    void wakeup() {
        publishConsumer.wakeup();
        subscriptionConsumer.wakeup();
    }

    @Override
    public void close() {
        try {
            settleInFlight(false);
            commitRouted(CLOSE_TIMEOUT);
        } catch (RuntimeException e) {
            log.debug("Committing the routed offsets on close failed: {}", e.toString());
        }
        metrics.forgetConsumerLag(publishConsumer);
        closeQuietly(publishConsumer, "publish");
        closeQuietly(subscriptionConsumer, "subscription");
        try {
            kafkaClientMetrics.close();
        } catch (Exception e) {
            log.debug("Removing the consumers' metrics failed: {}", e.toString());
        }
    }

    /**
     * Brings the feed up to date for {@code batch} while the previous batch's acknowledgements come, settles that
     * batch, then sends this one. Nothing unsettled is committed: on a failure, the batch and the one in flight (when
     * it was not settled) are read again from their first offsets.
     */
    private void routeBatch(ConsumerRecords<byte[], byte[]> batch, long polledAt) {
        DownlinkFanout.InFlight previous = inFlight;
        inFlight = null;
        boolean previousSettled = previous == null;
        try {
            feed.catchUp(settings.feedCatchUpTimeout());
            fanout.wakeArrivals(feed.drainArrivals());
            if (previous != null) {
                settled(previous, previous.await());
                previousSettled = true;
            }
            inFlight = fanout.send(batch, polledAt);
        } catch (WakeupException | InterruptException e) {
            if (!previousSettled) {
                inFlight = previous;
            }
            throw e;
        } catch (DeliveryFailedException | KafkaException e) {
            // The later batch first: where both hold a partition, the earlier one's first offset is the one kept.
            rewind(batch);
            if (!previousSettled) {
                rewind(previous.batch());
            }
            if (running.getAsBoolean()) {
                retry.failedThenWait("routing a batch of " + batch.count() + " publishes failed", e);
            }
        }
    }

    /**
     * Awaits the batch in flight, if any, and commits it; a failure rewinds it (it is read and routed again) and, on
     * the loop itself, waits the retry back-off (never inside a rebalance callback or on close).
     */
    private void settleInFlight(boolean backOffOnFailure) {
        DownlinkFanout.InFlight batch = inFlight;
        if (batch == null) {
            return;
        }
        inFlight = null;
        try {
            settled(batch, batch.await());
        } catch (DeliveryFailedException | KafkaException e) {
            rewind(batch.batch());
            if (!backOffOnFailure) {
                log.warn(
                        "A routed batch of {} publishes was not acknowledged; it is routed again: {}",
                        batch.batch().count(),
                        e.toString());
            } else if (running.getAsBoolean()) {
                retry.failedThenWait("routing a batch of " + batch.batch().count() + " publishes failed", e);
            }
        }
    }

    private void settled(DownlinkFanout.InFlight batch, Map<TopicPartition, OffsetAndMetadata> offsets) {
        metrics.batchRouted(System.nanoTime() - batch.polledAtNanos());
        commit(offsets);
        metrics.publishesRouted(batch.batch().count());
        status.batchRouted();
        retry.succeeded();
    }

    /**
     * Records a routed batch's offsets and commits everything routed so far without waiting, when the commit
     * interval has passed since the last commit; the callback (run inside a later poll, on this thread) only logs a
     * failure.
     */
    private void commit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        routed.putAll(offsets);
        commits.handled();
        commitIfDue();
    }

    /** Also called by an idle loop, so that the last batches before a pause are committed one interval later. */
    private void commitIfDue() {
        commits.commitIfDue(publishConsumer, () -> new HashMap<>(routed));
    }

    /** Commits every offset routed so far and waits for it: before partitions are revoked and on close. */
    private void commitRouted(Duration timeout) {
        if (routed.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>(routed);
        try {
            publishConsumer.commitSync(offsets, timeout);
        } catch (WakeupException e) {
            // stop() woke the consumer: commit them anyway (the wakeup is consumed), then stop.
            publishConsumer.commitSync(offsets, timeout);
            throw e;
        } catch (KafkaException e) {
            // The batches are routed again by the next owner: at least once towards nodes.
            log.warn("Committing the routed offsets failed: {}", e.toString());
        }
        routed.clear();
        commits.committed();
    }

    private void rewind(ConsumerRecords<byte[], byte[]> batch) {
        Set<TopicPartition> assigned = publishConsumer.assignment();
        for (TopicPartition tp : batch.partitions()) {
            if (assigned.contains(tp)) {
                publishConsumer.seek(tp, batch.records(tp).get(0).offset());
            }
        }
    }

    private void closeQuietly(Consumer<byte[], byte[]> consumer, String role) {
        try {
            consumer.close(CloseOptions.timeout(CLOSE_TIMEOUT));
        } catch (RuntimeException e) {
            log.debug("Closing the {} consumer failed: {}", role, e.toString());
        }
    }

    /**
     * Keeps the exact part of the index in step with the owned publish partitions. Runs inside
     * {@code publishConsumer.poll}, on the loop thread, between two batches: the batch in flight is settled and
     * committed (or rewound) first, so nothing is in hand when partitions are revoked.
     */
    private final class OwnershipListener implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            settleInFlight(false);
            commitRouted(settings.requestTimeout());
            if (!partitions.isEmpty()) {
                feed.removeExactPartitions(numbers(partitions));
                log.info("Publish partitions revoked: {}; now owning {}", numbers(partitions), index.ownedPartitions());
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (!partitions.isEmpty()) {
                // Read from the beginning at the next catch-up, before any publish of these partitions is routed.
                feed.addExactPartitions(numbers(partitions));
                log.info(
                        "Publish partitions assigned: {}; now owning {}", numbers(partitions), index.ownedPartitions());
            }
        }

        private List<Integer> numbers(Collection<TopicPartition> partitions) {
            List<Integer> numbers = new ArrayList<>(partitions.size());
            for (TopicPartition tp : partitions) {
                numbers.add(tp.partition());
            }
            numbers.sort(null);
            return numbers;
        }
    }
}
