package io.tributary.session.retained;

import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.TopicNames;
import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.kafka.FeedTopics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The upgrade from versions whose retained consumer read {@link TopicNames#PUBLISH}: that group's committed positions
 * may lag, and the retained PUBLISHes behind them were written before the producers wrote a copy to
 * {@link TopicNames#RETAINED}. Before the retained consumer starts, this reads the publish topic from the old group's
 * positions up to the end offsets it sees at start (retained records only, into PostgreSQL as the consumer would),
 * then commits those end offsets for the old group with {@link #DRAINED} as metadata, so later starts skip it. A
 * group without positions on the publish topic (a new installation) needs nothing.
 */
@Component
public class LegacyRetainedDrain {

    /** Offset-commit metadata of the old group once drained. */
    static final String DRAINED = "drained-to-" + TopicNames.RETAINED;

    private static final Logger log = LoggerFactory.getLogger(LegacyRetainedDrain.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final long ADMIN_TIMEOUT_SECONDS = 30;

    private final Admin admin;
    private final KafkaClients kafkaClients;
    private final RetainedApplier applier;
    private final String legacyGroup;

    @Autowired
    public LegacyRetainedDrain(
            Admin admin,
            KafkaClients kafkaClients,
            RetainedApplier applier,
            SessionServiceProperties properties,
            FeedTopics topics) {
        // FeedTopics is taken so that the topics exist before anything is read.
        this(admin, kafkaClients, applier, properties.retained().legacyConsumerGroup());
    }

    LegacyRetainedDrain(Admin admin, KafkaClients kafkaClients, RetainedApplier applier, String legacyGroup) {
        this.admin = admin;
        this.kafkaClients = kafkaClients;
        this.applier = applier;
        this.legacyGroup = legacyGroup;
    }

    /** @return the number of retained records written from the publish topic (0 when nothing was to drain) */
    public long drain() throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
        admin.listConsumerGroupOffsets(legacyGroup)
                .partitionsToOffsetAndMetadata()
                .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .forEach((p, o) -> {
                    if (p.topic().equals(TopicNames.PUBLISH) && o != null) {
                        committed.put(p, o);
                    }
                });
        if (committed.isEmpty()) {
            return 0;
        }
        if (committed.values().stream().anyMatch(o -> DRAINED.equals(o.metadata()))) {
            return 0;
        }
        // Read-committed ends (the last stable offsets): a read-committed consumer can always reach them.
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        int partitions = io.tributary.common.kafka.TopicLayout.publishPartitionsOf(admin);
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(TopicNames.PUBLISH, p), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .all()
                .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .forEach((p, info) -> ends.put(p, info.offset()));
        Map<TopicPartition, Long> from = new HashMap<>();
        ends.forEach((p, end) -> {
            // A partition the old group never committed was read from its start (auto.offset.reset=earliest).
            long start = committed.containsKey(p) ? committed.get(p).offset() : 0L;
            if (start < end) {
                from.put(p, start);
            }
        });
        long written = 0;
        if (!from.isEmpty()) {
            log.info(
                    "Upgrade: reading retained messages of {} from group {}'s positions up to {} before using {}",
                    TopicNames.PUBLISH,
                    legacyGroup,
                    ends,
                    TopicNames.RETAINED);
            written = read(from, ends);
        }
        markDrained(ends);
        return written;
    }

    private long read(Map<TopicPartition, Long> from, Map<TopicPartition, Long> ends) {
        Properties config = new Properties();
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // No group: positions are set here, and the old group's are written once, at the end, by the admin client.
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "session-service-retained-upgrade");
        long written = 0;
        try (Consumer<byte[], byte[]> consumer = kafkaClients.consumer(config)) {
            consumer.assign(from.keySet());
            from.forEach(consumer::seek);
            Map<TopicPartition, Long> pending = new HashMap<>(from);
            while (!pending.isEmpty()) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
                java.util.List<ConsumerRecord<byte[], byte[]>> batch = new java.util.ArrayList<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    // Only up to the ends read at start: later retained publishes are on the retained topic too.
                    if (r.offset() < ends.get(new TopicPartition(r.topic(), r.partition()))) {
                        batch.add(r);
                        if (RetainedApplier.isRetained(r)) {
                            written++;
                        }
                    }
                }
                applier.apply(batch);
                pending.entrySet().removeIf(e -> consumer.position(e.getKey()) >= ends.get(e.getKey()));
                consumer.pause(from.keySet().stream()
                        .filter(p -> !pending.containsKey(p))
                        .toList());
            }
        }
        log.info("Upgrade: {} retained record(s) read from {}", written, TopicNames.PUBLISH);
        return written;
    }

    /** Commits the ends for the old group, marked drained. Refused while members of it (older versions) still run. */
    private void markDrained(Map<TopicPartition, Long> ends) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        ends.forEach((p, end) -> offsets.put(p, new OffsetAndMetadata(end, DRAINED)));
        try {
            admin.alterConsumerGroupOffsets(legacyGroup, offsets).all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            log.info(
                    "Upgrade: group {} is no longer used; retained messages come from {}",
                    legacyGroup,
                    TopicNames.RETAINED);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // An older session-service is still a member: its progress moves on, and the next start drains again
            // from there (a replay: rows written from the retained topic are never replaced by the drain).
            log.warn(
                    "Upgrade: group {}'s positions on {} not committed ({}); drained again at the next start",
                    legacyGroup,
                    TopicNames.PUBLISH,
                    e.toString());
        }
    }
}
