package io.tributary.session.retained;

import io.tributary.common.kafka.CommitPacer;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.PollLoop;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.retry.Backoff;
import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.kafka.FeedTopics;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Keeps {@code retained_messages} up to date from {@link TopicNames#RETAINED}, in its own consumer group: every
 * record there is a retained PUBLISH (an empty payload deletes the topic's row), so this reads retained traffic only,
 * not every publish. Offsets are committed only after the batch is in PostgreSQL, at most every
 * {@link #COMMIT_INTERVAL} (at least once; replays are harmless because a row remembers the offset it came from).
 * Records are keyed by topic, so all records of one topic are on one partition, in order. Before it subscribes, the
 * upgrade drain ({@link LegacyRetainedDrain}) reads what the previous versions' group left on the publish topic.
 */
@Component
public class RetainedConsumer extends PollLoop implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RetainedConsumer.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(200);
    /**
     * Shortest time between two offset commits. Each commit is a write to the group coordinator's log: one per poll
     * was 150 commits a second at 1,000 publishes a second (JFR/async-profiler: the coordinator's event thread and
     * OffsetCommit handling took 13 % of the broker's CPU). The commit only serves other session-service instances'
     * retained catch-up, which reads the group's offsets every 50 ms anyway.
     */
    static final Duration COMMIT_INTERVAL = Duration.ofMillis(25);

    private final SessionServiceProperties properties;
    private final RetainedApplier applier;
    private final LegacyRetainedDrain legacy;
    private final RetainedProgress progress;
    private final io.tributary.session.metrics.SessionMetrics sessionMetrics;
    private final KafkaClients kafkaClients;
    /** Kafka's client metrics of the consumer; removed after it closes. */
    private volatile AutoCloseable kafkaClientMetrics = () -> {};

    private volatile Consumer<byte[], byte[]> consumer;
    /** Paces the commits of what was applied (consumer thread only). */
    private final CommitPacer commits = new CommitPacer(COMMIT_INTERVAL);

    public RetainedConsumer(
            SessionServiceProperties properties,
            RetainedApplier applier,
            LegacyRetainedDrain legacy,
            RetainedProgress progress,
            FeedTopics topics,
            io.tributary.session.metrics.SessionMetrics sessionMetrics,
            KafkaClients kafkaClients) {
        super(
                "retained-consumer",
                false,
                new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5)),
                Duration.ofSeconds(10));
        // FeedTopics is taken so that the retained topic exists (it creates it) before this consumer subscribes.
        this.properties = properties;
        this.applier = applier;
        this.legacy = legacy;
        this.progress = progress;
        this.sessionMetrics = sessionMetrics;
        this.kafkaClients = kafkaClients;
    }

    @Override
    public void start() {
        try {
            // First what the previous versions' group left unread on the publish topic (once, at the upgrade).
            legacy.drain();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted draining the publish topic's retained messages", e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot drain the retained messages left on " + TopicNames.PUBLISH + ": " + e.getMessage(), e);
        }
        Properties config = new Properties();
        // Incremental rebalances (and static membership if configured): a replica that restarts does not make the
        // others give up their partitions.
        config.putAll(
                properties.kafka().group().consumerConfig(properties.retained().consumerGroup()));
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, properties.kafka().group().clientId("session-service", "retained"));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // Exactly-once QoS 2 publishes (and their retained copies) are written in Kafka transactions: an aborted copy
        // must not become retained.
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // A new group must see every retained message still in the (compacted) topic, not only later ones.
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // fetch.max.wait.ms stays at Kafka's 500 ms: with fetch.min.bytes 1 a fetch returns as soon as a record is
        // there, so a shorter wait only adds empty fetches on an idle topic.
        consumer = kafkaClients.consumer(config);
        kafkaClientMetrics = sessionMetrics.bindKafkaClients(consumer);
        consumer.subscribe(List.of(TopicNames.RETAINED), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                // Between two polls: every record polled so far is in PostgreSQL, so the positions can be committed
                // for the next owner.
                commitNow();
                partitions.forEach(progress::forget);
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                // progress is published after the first poll that follows, from the consumer's positions
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                partitions.forEach(progress::forget);
            }
        });
        startLoop(consumer);
        log.info(
                "Retained-message consumer started (group {})",
                properties.retained().consumerGroup());
    }

    @Override
    protected void pollOnce() {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(commits.pending() ? COMMIT_INTERVAL : POLL_TIMEOUT);
        try {
            if (!records.isEmpty()) {
                applier.apply(records);
                commits.handled();
            }
            publishProgress();
            commits.commitIfDue(consumer, this::positions);
        } catch (WakeupException e) {
            // stop(): what was applied stays applied, and its positions are committed on the way out.
            throw e;
        } catch (RuntimeException e) {
            // Read the failed batch again after the back-off, so nothing of it is skipped.
            rewind(records);
            throw e;
        }
    }

    @Override
    protected void onLoopEnd() {
        commitNow();
        consumer.close(Duration.ofSeconds(5));
        try {
            kafkaClientMetrics.close();
        } catch (Exception e) {
            log.debug("Removing the retained consumer's metrics failed: {}", e.toString());
        }
    }

    /** Commits the positions and waits: before partitions are revoked and on close. */
    private void commitNow() {
        if (!commits.pending()) {
            return;
        }
        try {
            consumer.commitSync(positions(), Duration.ofSeconds(5));
            commits.committed();
        } catch (WakeupException e) {
            // stop() woke the consumer; the next owner re-reads from the last commit (harmless replays).
        } catch (RuntimeException e) {
            log.warn("Committing the retained consumer's offsets failed: {}", e.toString());
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> positions() {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        for (TopicPartition p : consumer.assignment()) {
            out.put(p, new OffsetAndMetadata(consumer.position(p)));
        }
        return out;
    }

    private void publishProgress() {
        for (TopicPartition p : consumer.assignment()) {
            progress.advance(p, consumer.position(p));
        }
    }

    /** Goes back to the first record of a failed batch on every partition, so nothing of it is skipped. */
    private void rewind(ConsumerRecords<byte[], byte[]> records) {
        try {
            for (TopicPartition p : records.partitions()) {
                List<ConsumerRecord<byte[], byte[]>> of = records.records(p);
                if (!of.isEmpty() && consumer.assignment().contains(p)) {
                    consumer.seek(p, of.get(0).offset());
                }
            }
        } catch (RuntimeException e) {
            log.warn("Cannot rewind the retained consumer: {}", e.toString());
        }
    }
}
