package io.tributary.common.kafka;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The one definition of a record on {@link TopicNames#RETAINED}: the copy of a retained publish record, so that the
 * retained store reads retained traffic only instead of every record of {@link TopicNames#PUBLISH}. Key = the
 * publish record's key (the tenant-qualified MQTT topic), value = the payload untouched (empty = the topic's
 * retained message is deleted, MQTT section 3.3.1.3; an ordinary record, not a null tombstone, so a consumer that
 * is behind still sees the deletion in order), headers = the publish record's metadata headers.
 *
 * <p>Every producer of a retained publish record writes the copy with the same producer and waits for both
 * acknowledgements before it acknowledges the client; the default partitioner puts one key on one partition, so the
 * copies of one publisher's messages to one topic stay in order.
 */
public final class RetainedRecordFormat {

    private RetainedRecordFormat() {}

    /** True for a record on the publish topic with {@link RecordHeaders#RETAIN} = 1 and a key. */
    public static boolean isRetainedPublish(ProducerRecord<byte[], byte[]> record) {
        return TopicNames.PUBLISH.equals(record.topic())
                && record.key() != null
                && RecordHeaders.readFlag(record.headers(), RecordHeaders.RETAIN);
    }

    /**
     * The retained copy of a retained publish record. Partition left to the producer (by key), timestamp the
     * publish record's.
     *
     * @throws IllegalArgumentException when {@code publish} is not a retained publish record
     */
    public static ProducerRecord<byte[], byte[]> copyOf(ProducerRecord<byte[], byte[]> publish) {
        if (!isRetainedPublish(publish)) {
            throw new IllegalArgumentException("not a retained record of " + TopicNames.PUBLISH + ": " + publish);
        }
        byte[] value = publish.value() == null ? new byte[0] : publish.value();
        ProducerRecord<byte[], byte[]> copy =
                new ProducerRecord<>(TopicNames.RETAINED, null, publish.timestamp(), publish.key(), value);
        for (Header h : publish.headers()) {
            copy.headers().add(h);
        }
        return copy;
    }

    /**
     * {@code records} with the retained copy of each retained publish record right after it; {@code records}
     * itself (nothing allocated) when none is retained, the common case.
     */
    public static List<ProducerRecord<byte[], byte[]>> withCopies(List<ProducerRecord<byte[], byte[]>> records) {
        List<ProducerRecord<byte[], byte[]>> out = null;
        for (int i = 0; i < records.size(); i++) {
            ProducerRecord<byte[], byte[]> record = records.get(i);
            if (out == null && isRetainedPublish(record)) {
                out = new ArrayList<>(records.size() + 1);
                out.addAll(records.subList(0, i));
            }
            if (out != null) {
                out.add(record);
                if (isRetainedPublish(record)) {
                    out.add(copyOf(record));
                }
            }
        }
        return out == null ? records : out;
    }
}
