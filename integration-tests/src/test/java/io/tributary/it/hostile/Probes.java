package io.tributary.it.hostile;

import java.io.ByteArrayOutputStream;
import java.util.Set;

/**
 * Protocol violations whose outcome the specifications fix: the connection is closed, and an accepted MQTT 5 client
 * is first sent a DISCONNECT with one of {@code v5Reasons} (0x81 malformed packet, 0x82 protocol error, 0x90 topic
 * name invalid, 0x94 topic alias invalid, 0x95 packet too large).
 */
enum Probes {
    SECOND_CONNECT(Set.of(0x82)),
    PUBLISH_QOS_3(Set.of(0x81)),
    SUBSCRIBE_RESERVED_FLAGS(Set.of(0x81)),
    PINGREQ_RESERVED_FLAGS(Set.of(0x81)),
    PUBREL_RESERVED_FLAGS(Set.of(0x81)),
    TOPIC_NOT_UTF8(Set.of(0x81, 0x90)),
    TOPIC_WITH_WILDCARD(Set.of(0x90)),
    REMAINING_LENGTH_OVER_MAXIMUM(Set.of(0x95)),
    REMAINING_LENGTH_FIVE_BYTES(Set.of(0x81)),
    SUBSCRIBE_WITHOUT_FILTERS(Set.of(0x81, 0x82)),
    UNSUBSCRIBE_WITHOUT_FILTERS(Set.of(0x81, 0x82)),
    SUBSCRIBE_QOS_3(Set.of(0x81)),
    AUTH_WITHOUT_METHOD(Set.of(0x82)),
    /** MQTT 5 only: properties a client must not send, or not twice. */
    SUBSCRIPTION_ID_ON_PUBLISH(Set.of(0x82)),
    TOPIC_ALIAS_ZERO(Set.of(0x94)),
    PAYLOAD_FORMAT_TWICE(Set.of(0x81, 0x82));

    final Set<Integer> v5Reasons;

    Probes(Set<Integer> v5Reasons) {
        this.v5Reasons = v5Reasons;
    }

    boolean v5Only() {
        return ordinal() >= SUBSCRIPTION_ID_ON_PUBLISH.ordinal();
    }

    byte[] bytes(boolean v5, Packets packets, String clientId) {
        return switch (this) {
            case SECOND_CONNECT -> packets.connect(v5, clientId, 30);
            case PUBLISH_QOS_3 -> publish(v5, 0x36, "a", new byte[] {0, 1}, new byte[0]);
            case SUBSCRIBE_RESERVED_FLAGS -> first(packets.subscribe(v5, 1, "a/b", 1), 0x80);
            case PINGREQ_RESERVED_FLAGS -> new byte[] {(byte) 0xC1, 0};
            case PUBREL_RESERVED_FLAGS -> first(Packets.ack(0x62, 1, v5), 0x60);
            case TOPIC_NOT_UTF8 -> publish(v5, 0x30, null, new byte[0], new byte[0]);
            case TOPIC_WITH_WILDCARD -> publish(v5, 0x30, "a/+/b", new byte[0], new byte[0]);
            case REMAINING_LENGTH_OVER_MAXIMUM -> new byte[] {0x30, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F};
            case REMAINING_LENGTH_FIVE_BYTES ->
                new byte[] {0x30, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x01};
            case SUBSCRIBE_WITHOUT_FILTERS ->
                v5 ? new byte[] {(byte) 0x82, 3, 0, 1, 0} : new byte[] {(byte) 0x82, 2, 0, 1};
            case UNSUBSCRIBE_WITHOUT_FILTERS ->
                v5 ? new byte[] {(byte) 0xA2, 3, 0, 1, 0} : new byte[] {(byte) 0xA2, 2, 0, 1};
            case SUBSCRIBE_QOS_3 -> packets.subscribe(v5, 1, "a/b", 3);
            case AUTH_WITHOUT_METHOD -> new byte[] {(byte) 0xF0, 2, 0x18, 0};
            case SUBSCRIPTION_ID_ON_PUBLISH -> publish(true, 0x30, "a", new byte[0], new byte[] {0x0B, 4});
            case TOPIC_ALIAS_ZERO -> publish(true, 0x30, "a", new byte[0], new byte[] {0x23, 0, 0});
            case PAYLOAD_FORMAT_TWICE -> publish(true, 0x30, "a", new byte[0], new byte[] {0x01, 0, 0x01, 0});
        };
    }

    /** PUBLISH with {@code topic} (null: "a/" then bytes that are not UTF-8), the bytes after it, properties. */
    private static byte[] publish(boolean v5, int firstByte, String topic, byte[] afterTopic, byte[] properties) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (topic == null) {
            Packets.bytes(body, new byte[] {'a', '/', (byte) 0xC3, 0x28});
        } else {
            Packets.string(body, topic);
        }
        body.writeBytes(afterTopic);
        if (v5) {
            Packets.properties(body, properties);
        }
        body.write('x');
        return Packets.packet(firstByte, body.toByteArray());
    }

    private static byte[] first(byte[] packet, int firstByte) {
        packet[0] = (byte) firstByte;
        return packet;
    }
}
