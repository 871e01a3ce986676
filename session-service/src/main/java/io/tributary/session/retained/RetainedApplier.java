package io.tributary.session.retained;

import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.session.tenant.quota.RetainedQuotas;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes a batch of retained records into {@code retained_messages} in one transaction, under the tenants' retained
 * quotas: a record with a payload is upserted, an empty (or null) one deletes the topic's row. Records of
 * {@link TopicNames#RETAINED} are all retained; of {@link TopicNames#PUBLISH} (the one-time upgrade drain) only those
 * with {@code mqtt.retain} = 1 are.
 */
@Component
public class RetainedApplier {

    private final RetainedStore store;
    private final RetainedMetrics metrics;
    private final RetainedQuotas quotas;
    private final TransactionTemplate transactions;
    private final Clock clock;

    public RetainedApplier(
            RetainedStore store,
            RetainedMetrics metrics,
            RetainedQuotas quotas,
            TransactionTemplate transactions,
            Clock clock) {
        this.store = store;
        this.metrics = metrics;
        this.quotas = quotas;
        this.transactions = transactions;
        this.clock = clock;
    }

    void apply(Iterable<ConsumerRecord<byte[], byte[]>> records) {
        List<String> topics = retainedTopics(records);
        if (topics.isEmpty()) {
            // No transaction (and no pooled connection) for a batch without retained records.
            return;
        }
        Instant now = clock.instant();
        int[] stored = {0};
        int[] deleted = {0};
        RetainedQuotas.Batch admitted = transactions.execute(status -> {
            // Tenants' retained quotas: exact, under a lock per tenant with one (no tenant topic: no query).
            RetainedQuotas.Batch batch = quotas.begin(topics, now);
            for (ConsumerRecord<byte[], byte[]> record : records) {
                if (!isRetained(record)) {
                    continue;
                }
                String topic = new String(record.key(), StandardCharsets.UTF_8);
                RetainedStore.Source source =
                        new RetainedStore.Source(record.topic(), record.partition(), record.offset());
                if (record.value() == null || record.value().length == 0) {
                    // MQTT section 3.3.1.3: a zero-byte retained payload removes the topic's retained message.
                    batch.deleted(topic, store.deleteFromRecord(topic, source));
                    deleted[0]++;
                    continue;
                }
                Instant expiresAt = expiresAt(record);
                if (!batch.admitStore(topic, expiresAt != null && !expiresAt.isAfter(now))) {
                    continue; // a new topic beyond its tenant's quota: reported after the commit
                }
                store.upsert(
                        topic,
                        record.value(),
                        RecordHeaders.readQos(record.headers()),
                        RetainedHeaders.encode(RetainedHeaders.of(record.headers())),
                        expiresAt,
                        now,
                        source);
                stored[0]++;
            }
            return batch;
        });
        metrics.applied(stored[0], deleted[0]);
        admitted.report();
    }

    static boolean isRetained(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() == null) {
            return false;
        }
        return TopicNames.RETAINED.equals(record.topic())
                || RecordHeaders.readFlag(record.headers(), RecordHeaders.RETAIN);
    }

    /** The topics of the batch's retained records, stores and deletions (what the quotas look at). */
    private static List<String> retainedTopics(Iterable<ConsumerRecord<byte[], byte[]>> records) {
        List<String> topics = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (isRetained(record)) {
                topics.add(new String(record.key(), StandardCharsets.UTF_8));
            }
        }
        return topics;
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
}
