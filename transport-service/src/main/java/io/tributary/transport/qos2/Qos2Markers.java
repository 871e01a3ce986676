package io.tributary.transport.qos2;

import io.tributary.common.kafka.TopicNames;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The de-duplication key of an inbound QoS 2 PUBLISH: client id, session incarnation (the time session-service
 * created the session's queue, so a new session after a clean start never matches an old one's markers) and packet
 * id. Its record on {@link TopicNames#QOS2_MARKERS} says "stored"; a tombstone at PUBREL frees the packet id.
 */
public final class Qos2Markers {

    private Qos2Markers() {}

    public static String key(String clientId, String sessionIncarnation, int packetId) {
        return clientId + '\n' + sessionIncarnation + '\n' + packetId;
    }

    /**
     * Written in the transaction of the publish record: present exactly when the publish is stored. The value is the
     * message's {@link #digest}, so a later message that reuses the packet id is not taken for this one while the
     * tombstone written at PUBREL is still on its way.
     */
    public static ProducerRecord<byte[], byte[]> marker(String key, byte[] digest) {
        return new ProducerRecord<>(TopicNames.QOS2_MARKERS, 0, bytes(key), digest);
    }

    /**
     * SHA-256 of the topic name and payload: a re-sent PUBLISH carries the same message (MQTT 4.3.3), a new message
     * with the same packet id almost never does.
     */
    public static byte[] digest(String topic, byte[] payload) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            sha.update(bytes(topic));
            sha.update((byte) 0);
            sha.update(payload);
            return sha.digest();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** After PUBREL: forgets the marker (the packet id may carry a new message after PUBCOMP). */
    public static ProducerRecord<byte[], byte[]> tombstone(String key) {
        return new ProducerRecord<>(TopicNames.QOS2_MARKERS, 0, bytes(key), null);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
