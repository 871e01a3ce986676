package io.tributary.transport.mapping;

import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.PollLoop;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.mapping.MappingRule;
import io.tributary.common.mapping.MappingRuleRecords;
import io.tributary.common.retry.Backoff;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the compacted topic {@link TopicNames#MAPPING_RULES} on its own thread, from offset 0 (no consumer group:
 * every node needs every rule), and applies each rule to {@link MappingRules}. A rule is applied only once the
 * publish producer has the metadata of its Kafka topic, fetched here: a send must never wait for metadata on an event
 * loop; until then the rule's topic is marked unavailable and the publishes it matches are refused. The metadata of
 * the rules' topics is fetched again every {@link #METADATA_REFRESH}, which also keeps the producer from forgetting a
 * topic no PUBLISH has used for a while.
 *
 * <p>{@link #start} returns once the rules present when the node started are applied, so the listener never opens
 * with rules missing.
 */
public final class MappingRuleFollower extends PollLoop implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MappingRuleFollower.class);
    static final Duration METADATA_REFRESH = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(500);
    /** Pause between attempts to get the metadata of a waiting rule's topic (each may block up to max.block.ms). */
    private static final Duration RETRY = Duration.ofSeconds(5);

    private static final TopicPartition PARTITION = new TopicPartition(TopicNames.MAPPING_RULES, 0);

    private final KafkaClients kafkaClients;
    private final String nodeId;
    private final Producer<byte[], byte[]> producer;
    private final MappingRules rules;
    /** Rules read whose topic metadata the producer could not get yet, by id; retried every poll. */
    private final Map<Long, MappingRule> waiting = new LinkedHashMap<>();

    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private volatile Consumer<byte[], byte[]> consumer;
    /** The topic's end when the node started: the loop has caught up once its position reaches it. */
    private volatile long startEnd;
    /** When the loop next refreshes the rules' topic metadata, and next retries waiting rules (loop thread). */
    private long nextRefresh;

    private long nextRetry;

    public MappingRuleFollower(
            KafkaClients kafkaClients, String nodeId, Producer<byte[], byte[]> producer, MappingRules rules) {
        // A failure ends the loop (see retries), so the back-off never waits.
        super("mapping-rules", true, Backoff.fixed(RETRY), Duration.ofSeconds(5));
        this.kafkaClients = kafkaClients;
        this.nodeId = nodeId;
        this.producer = producer;
        this.rules = rules;
    }

    /** Starts following and waits until the rules that existed at start are applied (or {@code timeout} passed). */
    public void start(Duration timeout) {
        Properties config = new Properties();
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "tributary-transport-rules-" + nodeId);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer = kafkaClients.consumer(config);
        consumer.assign(List.of(PARTITION));
        consumer.seekToBeginning(List.of(PARTITION));
        startEnd = consumer.endOffsets(List.of(PARTITION), timeout).get(PARTITION);
        nextRefresh = System.nanoTime() + METADATA_REFRESH.toNanos();
        nextRetry = System.nanoTime();
        startLoop(consumer);
        try {
            if (!caughtUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                close();
                throw new IllegalStateException("mapping rules not read from " + TopicNames.MAPPING_RULES + " within "
                        + timeout.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading the mapping rules", e);
        }
        log.info("{} mapping rule(s) applied", rules.size());
    }

    @Override
    protected void pollOnce() {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
            apply(record);
        }
        if (System.nanoTime() - nextRetry > 0) {
            retryWaiting();
            nextRetry = System.nanoTime() + RETRY.toNanos();
        }
        // A rule whose topic has no metadata does not hold the node back: it is applied when it has.
        if (caughtUp.getCount() > 0 && consumer.position(PARTITION) >= startEnd) {
            caughtUp.countDown();
        }
        if (System.nanoTime() - nextRefresh > 0) {
            refreshMetadata();
            nextRefresh = System.nanoTime() + METADATA_REFRESH.toNanos();
        }
    }

    /** A failure ends the following (as it always did): the node keeps the rules it has. */
    @Override
    protected boolean retries(RuntimeException failure) {
        return false;
    }

    @Override
    protected void onFatal(RuntimeException failure) {
        log.error("Mapping rules no longer followed: new or removed rules are not applied on this node", failure);
    }

    @Override
    protected void onLoopEnd() {
        consumer.close();
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) {
        long id;
        try {
            id = MappingRuleRecords.id(record);
        } catch (RuntimeException e) {
            log.warn(
                    "Record at offset {} of {} is not a mapping rule: {}",
                    record.offset(),
                    record.topic(),
                    e.toString());
            return;
        }
        waiting.remove(id);
        if (record.value() == null) {
            rules.remove(id);
            log.info("Mapping rule {} removed", id);
            return;
        }
        MappingRule rule;
        try {
            rule = MappingRuleRecords.fromRecord(record);
        } catch (IllegalArgumentException e) {
            // session-service validated it; a record this node cannot read is left out rather than half applied.
            log.warn("Mapping rule {} ignored: {}", id, e.getMessage());
            rules.remove(id);
            return;
        }
        if (hasMetadata(rule.kafkaTopic())) {
            rules.put(rule);
            log.info(
                    "Mapping rule {} applied: MQTT '{}' -> Kafka '{}', key {}",
                    id,
                    rule.filter().text(),
                    rule.kafkaTopic(),
                    rule.key());
        } else {
            // Not applied yet, but not forgotten either: publishes it matches are refused meanwhile (never
            // acknowledged without their mapped copy).
            rules.put(rule);
            rules.markUnavailable(rule.kafkaTopic(), true);
            waiting.put(id, rule);
        }
    }

    private void retryWaiting() {
        if (waiting.isEmpty()) {
            return;
        }
        for (var it = waiting.values().iterator(); it.hasNext(); ) {
            MappingRule rule = it.next();
            if (hasMetadata(rule.kafkaTopic())) {
                it.remove();
                rules.markUnavailable(rule.kafkaTopic(), false);
                log.info(
                        "Mapping rule {} applied: MQTT '{}' -> Kafka '{}', key {}",
                        rule.id(),
                        rule.filter().text(),
                        rule.kafkaTopic(),
                        rule.key());
            }
        }
    }

    /**
     * Asks the producer for the topic's partitions: loads its metadata (this thread may wait for it, an event loop
     * may not) and marks the topic as in use.
     */
    private boolean hasMetadata(String topic) {
        try {
            producer.partitionsFor(topic);
            return true;
        } catch (KafkaException e) {
            log.warn("No metadata for Kafka topic '{}' of a mapping rule, the rule waits: {}", topic, e.toString());
            return false;
        }
    }

    /**
     * Topics that lost their metadata (deleted, or no longer described to us) are marked unavailable, so publishes
     * their rules match are refused at once instead of blocking an event loop for max.block.ms in the producer.
     */
    private void refreshMetadata() {
        Map<String, Boolean> checked = new HashMap<>();
        for (MappingRule rule : rules.all()) {
            boolean ok = checked.computeIfAbsent(rule.kafkaTopic(), this::hasMetadata);
            rules.markUnavailable(rule.kafkaTopic(), !ok);
            if (!ok) {
                waiting.put(rule.id(), rule);
            }
        }
    }

    @Override
    public void close() {
        stop();
    }
}
