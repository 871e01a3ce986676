package io.tributary.session.retained;

import io.tributary.common.kafka.CommitPacer;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.PollLoop;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.retry.Backoff;
import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.kafka.FeedTopics;
import io.tributary.session.tenant.quota.RetainedQuotas;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps {@code retained_messages} up to date from {@code tributary.publish}, in its own consumer group: records with
 * {@code mqtt.retain} = 1 are upserted (an empty payload deletes the topic's row), all others skipped. Offsets are
 * committed only after the batch is in PostgreSQL, at most every {@link #COMMIT_INTERVAL} (at least once; replays are
 * harmless because a row remembers the offset it came from). Records are keyed by topic, so all records of one topic are on one partition, in order.
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
    private final RetainedStore store;
    private final RetainedProgress progress;
    private final RetainedMetrics metrics;
    private final RetainedQuotas quotas;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final io.tributary.session.metrics.SessionMetrics sessionMetrics;
    private final KafkaClients kafkaClients;
    /** Kafka's client metrics of the consumer; removed after it closes. */
    private volatile AutoCloseable kafkaClientMetrics = () -> {};

    private volatile Consumer<byte[], byte[]> consumer;
    /** Paces the commits of what was applied (consumer thread only). */
    private final CommitPacer commits = new CommitPacer(COMMIT_INTERVAL);

    public RetainedConsumer(
            SessionServiceProperties properties,
            RetainedStore store,
            RetainedProgress progress,
            RetainedMetrics metrics,
            RetainedQuotas quotas,
            TransactionTemplate transactions,
            Clock clock,
            FeedTopics topics,
            io.tributary.session.metrics.SessionMetrics sessionMetrics,
            KafkaClients kafkaClients) {
        super(
                "retained-consumer",
                false,
                new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5)),
                Duration.ofSeconds(10));
        // FeedTopics is taken so that the publish topic exists (it creates it) before this consumer subscribes.
        this.properties = properties;
        this.store = store;
        this.progress = progress;
        this.metrics = metrics;
        this.quotas = quotas;
        this.transactions = transactions;
        this.clock = clock;
        this.sessionMetrics = sessionMetrics;
        this.kafkaClients = kafkaClients;
    }

    @Override
    public void start() {
        Properties config = new Properties();
        // Incremental rebalances (and static membership if configured): a replica that restarts does not make the
        // others give up their partitions.
        config.putAll(
                properties.kafka().group().consumerConfig(properties.retained().consumerGroup()));
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, properties.kafka().group().clientId("session-service", "retained"));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // Exactly-once QoS 2 publishes are written in Kafka transactions: an aborted copy must not become retained.
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // A new group must see every retained message still in the topic, not only later ones.
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // fetch.max.wait.ms stays at Kafka's 500 ms: with fetch.min.bytes 1 a fetch returns as soon as a record is
        // there, so a shorter wait only adds empty fetches on an idle topic.
        consumer = kafkaClients.consumer(config);
        kafkaClientMetrics = sessionMetrics.bindKafkaClients(consumer);
        consumer.subscribe(List.of(TopicNames.PUBLISH), new ConsumerRebalanceListener() {
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
                apply(records);
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

    private void apply(ConsumerRecords<byte[], byte[]> records) {
        List<String> topics = retainedTopics(records);
        if (topics.isEmpty()) {
            // Most publishes are not retained: no transaction (and no pooled connection) for a batch of them.
            return;
        }
        Instant now = clock.instant();
        int[] stored = {0};
        int[] deleted = {0};
        RetainedQuotas.Batch admitted = transactions.execute(status -> {
            // Tenants' retained quotas: exact, under a lock per tenant with one (no tenant topic: no query).
            RetainedQuotas.Batch batch = quotas.begin(topics, now);
            for (ConsumerRecord<byte[], byte[]> record : records) {
                if (record.key() == null || !RecordHeaders.readFlag(record.headers(), RecordHeaders.RETAIN)) {
                    continue;
                }
                String topic = new String(record.key(), StandardCharsets.UTF_8);
                if (record.value() == null || record.value().length == 0) {
                    // MQTT section 3.3.1.3: a zero-byte retained payload removes the topic's retained message.
                    batch.deleted(topic, store.deleteFromRecord(topic, record.partition(), record.offset()));
                    deleted[0]++;
                    continue;
                }
                if (!batch.admitStore(topic)) {
                    continue; // a new topic beyond its tenant's quota: reported after the commit
                }
                store.upsert(
                        topic,
                        record.value(),
                        qosOf(record),
                        RetainedHeaders.encode(RetainedHeaders.of(record.headers())),
                        expiresAt(record),
                        now,
                        record.partition(),
                        record.offset());
                stored[0]++;
            }
            return batch;
        });
        metrics.applied(stored[0], deleted[0]);
        admitted.report();
    }

    /** The topics of the batch's retained records, stores and deletions (what the quotas look at). */
    private static List<String> retainedTopics(ConsumerRecords<byte[], byte[]> records) {
        List<String> topics = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (record.key() != null && RecordHeaders.readFlag(record.headers(), RecordHeaders.RETAIN)) {
                topics.add(new String(record.key(), StandardCharsets.UTF_8));
            }
        }
        return topics;
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

    /** Receive time plus the MQTT 5 message expiry interval, or null when the message does not expire. */
    static Instant expiresAt(ConsumerRecord<byte[], byte[]> record) {
        Long expiry = RecordHeaders.readUnsignedInt(record.headers(), RecordHeaders.MESSAGE_EXPIRY);
        if (expiry == null) {
            return null;
        }
        Long receivedAt = RecordHeaders.readLong(record.headers(), RecordHeaders.RECEIVED_AT);
        long base = receivedAt != null ? receivedAt : record.timestamp();
        return Instant.ofEpochMilli(base).plusSeconds(expiry);
    }

    private static int qosOf(ConsumerRecord<byte[], byte[]> record) {
        return RecordHeaders.readQos(record.headers());
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
