package io.tributary.session.will;

import io.tributary.common.kafka.PublishProperties;
import io.tributary.common.kafka.PublishRecordFormat;
import java.time.Instant;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One row of {@code wills}.
 *
 * @param epoch     the connection epoch that left it
 * @param nodeId    the node that received its CONNECT
 * @param publishAt null while its connection lives
 */
public record StoredWill(
        String clientId,
        long epoch,
        String nodeId,
        int protocolVersion,
        String topic,
        byte[] payload,
        int qos,
        boolean retain,
        long delaySeconds,
        PublishProperties properties,
        Instant publishAt) {

    /**
     * The publish record, built exactly as a transport node builds the record of a will it publishes itself; the
     * message expiry counts from {@code publishedAtMillis}.
     */
    public ProducerRecord<byte[], byte[]> toRecord(long publishedAtMillis) {
        return PublishRecordFormat.toRecord(
                topic,
                payload,
                qos,
                retain,
                clientId,
                protocolVersion,
                nodeId,
                protocolVersion == 5 ? properties : null,
                publishedAtMillis);
    }
}
