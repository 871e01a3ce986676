package io.tributary.common.mapping;

import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Records of the compacted {@link TopicNames#MAPPING_RULES} topic, by which session-service (which keeps the rules in
 * PostgreSQL) hands them to every transport node: key = rule id (decimal, UTF-8), value = the filter as written
 * (UTF-8), the Kafka topic and the key source in headers. A removed rule is a tombstone (null value), so compaction
 * leaves exactly the current rules and a node that starts reads them all from offset 0.
 */
public final class MappingRuleRecords {

    public static final String KAFKA_TOPIC = "tributary.rule.kafka-topic";
    public static final String KEY_SOURCE = "tributary.rule.key";

    private MappingRuleRecords() {}

    public static ProducerRecord<byte[], byte[]> toRecord(MappingRule rule) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                TopicNames.MAPPING_RULES,
                key(rule.id()),
                RecordHeaders.utf8(rule.filter().text()));
        record.headers().add(new RecordHeader(KAFKA_TOPIC, RecordHeaders.utf8(rule.kafkaTopic())));
        record.headers()
                .add(new RecordHeader(KEY_SOURCE, RecordHeaders.utf8(rule.key().toString())));
        return record;
    }

    public static ProducerRecord<byte[], byte[]> tombstone(long id) {
        return new ProducerRecord<>(TopicNames.MAPPING_RULES, key(id), null);
    }

    /** The rule id of a record (also of a tombstone). */
    public static long id(ConsumerRecord<byte[], byte[]> record) {
        return Long.parseLong(new String(record.key(), StandardCharsets.UTF_8));
    }

    /**
     * The rule a non-tombstone record carries.
     *
     * @throws IllegalArgumentException when the record is not a valid rule
     */
    public static MappingRule fromRecord(ConsumerRecord<byte[], byte[]> record) {
        return MappingRule.of(
                id(record),
                new String(record.value(), StandardCharsets.UTF_8),
                RecordHeaders.readString(record.headers(), KAFKA_TOPIC),
                RecordHeaders.readString(record.headers(), KEY_SOURCE));
    }

    private static byte[] key(long id) {
        return Long.toString(id).getBytes(StandardCharsets.UTF_8);
    }
}
