package io.tributary.session.takeover;

import io.tributary.common.kafka.DownlinkType;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Control records for a transport node's downlink topic: key = client id, no value, the command in headers. The
 * node applies a command only to a connection whose epoch it supersedes, so a late command never closes a newer
 * connection.
 */
public final class DownlinkCommands {

    /** MQTT 5 reason code 0x98, Administrative action. */
    public static final int ADMINISTRATIVE_ACTION = 0x98;
    /** MQTT 5 reason code 0x87, Not authorized: the connection's credential was blocked or deleted. */
    public static final int NOT_AUTHORIZED = 0x87;

    private DownlinkCommands() {}

    /** Tells {@code nodeId} that {@code clientId} connected again elsewhere (or on it) with {@code newEpoch}. */
    public static ProducerRecord<byte[], byte[]> takeover(String nodeId, String clientId, long newEpoch) {
        return command(nodeId, clientId, DownlinkType.TAKEOVER, newEpoch);
    }

    /** Asks {@code nodeId} to close the connection of {@code clientId} at {@code epoch} with {@code reasonCode}. */
    public static ProducerRecord<byte[], byte[]> disconnect(
            String nodeId, String clientId, long epoch, int reasonCode) {
        ProducerRecord<byte[], byte[]> record = command(nodeId, clientId, DownlinkType.DISCONNECT, epoch);
        record.headers().add(new RecordHeader(RecordHeaders.REASON_CODE, RecordHeaders.int32(reasonCode)));
        return record;
    }

    private static ProducerRecord<byte[], byte[]> command(
            String nodeId, String clientId, DownlinkType type, long epoch) {
        ProducerRecord<byte[], byte[]> record =
                new ProducerRecord<>(TopicNames.downlink(nodeId), clientId.getBytes(StandardCharsets.UTF_8), null);
        record.headers().add(new RecordHeader(RecordHeaders.DOWNLINK_TYPE, type.headerValue()));
        record.headers().add(new RecordHeader(RecordHeaders.EPOCH, RecordHeaders.int64(epoch)));
        return record;
    }
}
