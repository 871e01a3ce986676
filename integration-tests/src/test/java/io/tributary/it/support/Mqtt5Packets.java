package io.tributary.it.support;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * MQTT 5 packets as bytes, for {@link RawMqtt}: the wire details real clients hide (which topic alias a PUBLISH
 * carries, whether its topic name is empty) and the protocol errors they refuse to send. Only what the tests
 * need; properties are written in the order given.
 */
public final class Mqtt5Packets {

    private Mqtt5Packets() {}

    /** One property, already encoded (identifier + value). */
    public record Property(byte[] bytes) {

        public static Property topicAlias(int alias) {
            return new Property(new byte[] {0x23, (byte) (alias >> 8), (byte) alias});
        }

        public static Property topicAliasMaximum(int maximum) {
            return new Property(new byte[] {0x22, (byte) (maximum >> 8), (byte) maximum});
        }

        /** Authentication Method (0x15), a UTF-8 string. */
        public static Property authenticationMethod(String method) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(0x15);
            RawMqtt.writeString(out, method);
            return new Property(out.toByteArray());
        }

        /** Response Topic (0x08), a UTF-8 string, written as given (wildcards included). */
        public static Property responseTopic(String topic) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(0x08);
            RawMqtt.writeString(out, topic);
            return new Property(out.toByteArray());
        }

        public static Property sessionExpiryInterval(int seconds) {
            return new Property(int32Property(0x11, seconds));
        }

        public static Property subscriptionIdentifier(int id) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(0x0B);
            writeVarInt(out, id);
            return new Property(out.toByteArray());
        }
    }

    /** A PUBLISH as it came over the wire: {@code topic} is empty when only the alias names it. */
    public record Publish(
            String topic, int qos, int packetId, Integer topicAlias, List<Integer> subscriptionIds, byte[] payload) {}

    /** CONNECT, MQTT 5, clean start. */
    public static byte[] connect(String clientId, int keepAliveSeconds, Property... properties) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        RawMqtt.writeString(body, "MQTT");
        body.write(5);
        body.write(0x02);
        body.write(keepAliveSeconds >> 8);
        body.write(keepAliveSeconds & 0xFF);
        writeProperties(body, properties);
        RawMqtt.writeString(body, clientId);
        return RawMqtt.packet(0x10, body.toByteArray());
    }

    /** CONNECT, MQTT 5, with the clean start flag as given and the properties in the order given. */
    public static byte[] connect(String clientId, int keepAliveSeconds, boolean cleanStart, Property... properties) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        RawMqtt.writeString(body, "MQTT");
        body.write(5);
        body.write(cleanStart ? 0x02 : 0x00);
        body.write(keepAliveSeconds >> 8);
        body.write(keepAliveSeconds & 0xFF);
        writeProperties(body, properties);
        RawMqtt.writeString(body, clientId);
        return RawMqtt.packet(0x10, body.toByteArray());
    }

    /** CONNECT, MQTT 5, with Session Expiry Interval {@code sessionExpirySeconds}; clean start as given. */
    public static byte[] connectPersistent(
            String clientId, int keepAliveSeconds, boolean cleanStart, int sessionExpirySeconds) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        RawMqtt.writeString(body, "MQTT");
        body.write(5);
        body.write(cleanStart ? 0x02 : 0x00);
        body.write(keepAliveSeconds >> 8);
        body.write(keepAliveSeconds & 0xFF);
        writeProperties(body, new Property(int32Property(0x11, sessionExpirySeconds)));
        RawMqtt.writeString(body, clientId);
        return RawMqtt.packet(0x10, body.toByteArray());
    }

    /** PUBREL, reason 0x00. */
    public static byte[] pubrel(int packetId) {
        return new byte[] {0x62, 0x02, (byte) (packetId >> 8), (byte) packetId};
    }

    /** The same packet with the DUP flag set (a PUBLISH sent again). */
    public static byte[] withDup(byte[] publish) {
        byte[] copy = publish.clone();
        copy[0] |= 0x08;
        return copy;
    }

    /** Session Present of a CONNACK as {@link RawMqtt#readPacket} returns it. */
    public static boolean sessionPresent(byte[] connack) {
        return (connack[1] & 0x01) != 0;
    }

    /**
     * CONNECT, MQTT 5, clean start, with a will: Session Expiry Interval {@code sessionExpirySeconds}, Will Delay
     * Interval {@code willDelaySeconds}.
     */
    public static byte[] connectWithWill(
            String clientId,
            int keepAliveSeconds,
            int sessionExpirySeconds,
            String willTopic,
            byte[] willPayload,
            int willQos,
            int willDelaySeconds) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        RawMqtt.writeString(body, "MQTT");
        body.write(5);
        body.write(0x02 | 0x04 | (willQos << 3));
        body.write(keepAliveSeconds >> 8);
        body.write(keepAliveSeconds & 0xFF);
        writeProperties(body, new Property(int32Property(0x11, sessionExpirySeconds)));
        RawMqtt.writeString(body, clientId);
        writeProperties(body, new Property(int32Property(0x18, willDelaySeconds)));
        RawMqtt.writeString(body, willTopic);
        body.write(willPayload.length >> 8);
        body.write(willPayload.length & 0xFF);
        body.writeBytes(willPayload);
        return RawMqtt.packet(0x10, body.toByteArray());
    }

    /** CONNECT, MQTT 5, clean start, with a QoS 0 will carrying {@code willProperties}. */
    public static byte[] connectWithWill(
            String clientId, int keepAliveSeconds, String willTopic, byte[] willPayload, Property... willProperties) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        RawMqtt.writeString(body, "MQTT");
        body.write(5);
        body.write(0x02 | 0x04);
        body.write(keepAliveSeconds >> 8);
        body.write(keepAliveSeconds & 0xFF);
        writeProperties(body);
        RawMqtt.writeString(body, clientId);
        writeProperties(body, willProperties);
        RawMqtt.writeString(body, willTopic);
        body.write(willPayload.length >> 8);
        body.write(willPayload.length & 0xFF);
        body.writeBytes(willPayload);
        return RawMqtt.packet(0x10, body.toByteArray());
    }

    /** DISCONNECT, reason 0x00 (normal: the will is discarded). */
    public static byte[] disconnect() {
        return new byte[] {(byte) 0xE0, 0x00};
    }

    private static byte[] int32Property(int id, int value) {
        return new byte[] {(byte) id, (byte) (value >> 24), (byte) (value >> 16), (byte) (value >> 8), (byte) value};
    }

    public static byte[] publish(String topic, int qos, int packetId, byte[] payload, Property... properties) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        RawMqtt.writeString(body, topic);
        if (qos > 0) {
            body.write(packetId >> 8);
            body.write(packetId & 0xFF);
        }
        writeProperties(body, properties);
        body.writeBytes(payload);
        return RawMqtt.packet(0x30 | (qos << 1), body.toByteArray());
    }

    public static byte[] subscribe(int packetId, String filter, int qos, Property... properties) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(packetId >> 8);
        body.write(packetId & 0xFF);
        writeProperties(body, properties);
        RawMqtt.writeString(body, filter);
        body.write(qos);
        return RawMqtt.packet(0x82, body.toByteArray());
    }

    public static byte[] unsubscribe(int packetId, String filter) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(packetId >> 8);
        body.write(packetId & 0xFF);
        writeProperties(body);
        RawMqtt.writeString(body, filter);
        return RawMqtt.packet(0xA2, body.toByteArray());
    }

    /** PUBACK, reason 0x00. */
    public static byte[] puback(int packetId) {
        return new byte[] {0x40, 0x02, (byte) (packetId >> 8), (byte) packetId};
    }

    /**
     * The numeric properties of a CONNACK as {@link RawMqtt#readPacket} returns it, by property identifier (e.g.
     * 0x13 Server Keep Alive, 0x21 Receive Maximum); string and binary properties are skipped.
     */
    public static java.util.Map<Integer, Long> connackNumbers(byte[] connack) {
        java.util.Map<Integer, Long> numbers = new java.util.HashMap<>();
        int[] pos = {3};
        int end = readVarInt(connack, pos) + pos[0];
        while (pos[0] < end) {
            int id = connack[pos[0]++] & 0xFF;
            int width = switch (id) {
                case 0x24, 0x25, 0x28, 0x29, 0x2A -> 1;
                case 0x13, 0x21, 0x22 -> 2;
                case 0x11, 0x27 -> 4;
                default -> 0;
            };
            if (width > 0) {
                long value = 0;
                for (int i = 0; i < width; i++) {
                    value = (value << 8) | (connack[pos[0]++] & 0xFF);
                }
                numbers.put(id, value);
            } else if (id == 0x26) {
                for (int i = 0; i < 2; i++) {
                    pos[0] += 2 + (((connack[pos[0]] & 0xFF) << 8) | (connack[pos[0] + 1] & 0xFF));
                }
            } else {
                // 0x12, 0x15, 0x16, 0x1A, 0x1C, 0x1F: one string or binary
                pos[0] += 2 + (((connack[pos[0]] & 0xFF) << 8) | (connack[pos[0] + 1] & 0xFF));
            }
        }
        return numbers;
    }

    /** Packet type (upper nibble of the first byte), e.g. 2 = CONNACK, 3 = PUBLISH, 14 = DISCONNECT. */
    public static int type(byte[] packet) {
        return (packet[0] & 0xF0) >> 4;
    }

    /**
     * The reason code of a CONNACK, PUBACK, PUBREC, PUBCOMP, SUBACK or DISCONNECT as {@link RawMqtt#readPacket}
     * returns it (first byte, then the body without the remaining length).
     */
    public static int reasonCode(byte[] packet) {
        return switch (type(packet)) {
            case 2 -> packet[2] & 0xFF; // flags, reason code
            case 4, 5, 7 -> packet.length > 3 ? packet[3] & 0xFF : 0; // packet id, optional reason code
            case 9 -> packet[packet.length - 1] & 0xFF; // single filter: last byte
            case 14 -> packet.length > 1 ? packet[1] & 0xFF : 0;
            default -> throw new IllegalArgumentException("no reason code in packet type " + type(packet));
        };
    }

    public static Publish parsePublish(byte[] packet) {
        if (type(packet) != 3) {
            throw new IllegalArgumentException("not a PUBLISH: type " + type(packet));
        }
        int qos = (packet[0] >> 1) & 3;
        int[] pos = {1};
        int topicLength = ((packet[pos[0]] & 0xFF) << 8) | (packet[pos[0] + 1] & 0xFF);
        String topic = new String(packet, pos[0] + 2, topicLength, StandardCharsets.UTF_8);
        pos[0] += 2 + topicLength;
        int packetId = 0;
        if (qos > 0) {
            packetId = ((packet[pos[0]] & 0xFF) << 8) | (packet[pos[0] + 1] & 0xFF);
            pos[0] += 2;
        }
        int end = readVarInt(packet, pos) + pos[0];
        Integer alias = null;
        List<Integer> subscriptionIds = new ArrayList<>();
        while (pos[0] < end) {
            int id = packet[pos[0]++] & 0xFF;
            switch (id) {
                case 0x01 -> pos[0] += 1; // payload format indicator
                case 0x02 -> pos[0] += 4; // message expiry interval
                case 0x03, 0x08, 0x09 -> pos[0] += 2 + (((packet[pos[0]] & 0xFF) << 8) | (packet[pos[0] + 1] & 0xFF));
                case 0x0B -> subscriptionIds.add(readVarInt(packet, pos));
                case 0x23 -> {
                    alias = ((packet[pos[0]] & 0xFF) << 8) | (packet[pos[0] + 1] & 0xFF);
                    pos[0] += 2;
                }
                case 0x26 -> {
                    for (int i = 0; i < 2; i++) {
                        pos[0] += 2 + (((packet[pos[0]] & 0xFF) << 8) | (packet[pos[0] + 1] & 0xFF));
                    }
                }
                default ->
                    throw new IllegalArgumentException("unexpected PUBLISH property 0x" + Integer.toHexString(id));
            }
        }
        byte[] payload = new byte[packet.length - end];
        System.arraycopy(packet, end, payload, 0, payload.length);
        return new Publish(topic, qos, packetId, alias, subscriptionIds, payload);
    }

    private static void writeProperties(ByteArrayOutputStream out, Property... properties) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (Property p : properties) {
            all.writeBytes(p.bytes());
        }
        writeVarInt(out, all.size());
        out.writeBytes(all.toByteArray());
    }

    private static void writeVarInt(ByteArrayOutputStream out, int value) {
        do {
            int digit = value % 128;
            value /= 128;
            out.write(value > 0 ? digit | 0x80 : digit);
        } while (value > 0);
    }

    private static int readVarInt(byte[] bytes, int[] pos) {
        int value = 0;
        int multiplier = 1;
        int digit;
        do {
            digit = bytes[pos[0]++] & 0xFF;
            value += (digit & 0x7F) * multiplier;
            multiplier *= 128;
        } while ((digit & 0x80) != 0);
        return value;
    }
}
