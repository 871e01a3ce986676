package io.tributary.transport.qos2;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.clients.producer.ProducerRecord;

import io.tributary.common.kafka.TopicNames;

/**
 * The de-duplication key of an inbound QoS 2 PUBLISH: client id, session incarnation (the time session-service
 * created the session's queue, so a new session after a clean start never matches an old one's markers) and packet
 * id. Its record on {@link TopicNames#QOS2_MARKERS} says "stored"; a tombstone at PUBREL frees the packet id.
 */
public final class Qos2Markers {

    private Qos2Markers() {
    }

    public static String key(String clientId, String sessionIncarnation, int packetId) {
        return clientId + '\n' + sessionIncarnation + '\n' + packetId;
    }

    /** Written in the transaction of the publish record: present exactly when the publish is stored. */
    public static ProducerRecord<byte[], byte[]> marker(String key, String nodeId) {
        return new ProducerRecord<>(TopicNames.QOS2_MARKERS, 0, bytes(key), bytes(nodeId));
    }

    /** At PUBREL: the packet id may carry a new message after PUBCOMP. */
    public static ProducerRecord<byte[], byte[]> tombstone(String key) {
        return new ProducerRecord<>(TopicNames.QOS2_MARKERS, 0, bytes(key), null);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
