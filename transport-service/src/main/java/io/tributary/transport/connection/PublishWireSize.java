package io.tributary.transport.connection;

import io.netty.handler.codec.mqtt.MqttProperties;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The exact number of bytes a PUBLISH takes on the wire, as Netty's encoder writes it: fixed header, topic, packet
 * id, MQTT 5 properties (each with its identifier and its real length, subscription identifiers as variable byte
 * integers, user properties as string pairs) and payload. A client's Maximum Packet Size (MQTT 5 section 3.1.2.11.4)
 * is a hard limit on exactly this number: a message one byte above it must be dropped for that client and one
 * exactly at it must be sent, so an estimate is not good enough.
 */
public final class PublishWireSize {

    private PublishWireSize() {}

    /**
     * @param topicBytes     UTF-8 length of the topic name as written (0 when a known topic alias replaces it)
     * @param propertyBytes  {@link #propertiesLength} of the properties written, or -1 for MQTT 3.x (no property
     *                       section at all)
     */
    public static long packet(int topicBytes, int qos, int propertyBytes, int payloadBytes) {
        long remaining = 2L + topicBytes + (qos > 0 ? 2 : 0) + payloadBytes;
        if (propertyBytes >= 0) {
            remaining += varIntSize(propertyBytes) + propertyBytes;
        }
        return 1 + varIntSize(remaining) + remaining;
    }

    /** Length of the property section's content (without its own length prefix). */
    public static int propertiesLength(MqttProperties properties) {
        if (properties == null) {
            return 0;
        }
        int length = 0;
        for (MqttProperties.MqttProperty<?> p : properties.listAll()) {
            length += propertyLength(p);
        }
        return length;
    }

    /** Bytes one property takes: its identifier (a variable byte integer, always 1 byte today) and its value. */
    public static int propertyLength(MqttProperties.MqttProperty<?> property) {
        int id = property.propertyId();
        Object value = property.value();
        if (id == MqttProperties.USER_PROPERTY) {
            // Netty hands user properties over as one property holding all pairs, or one per pair.
            int length = 0;
            if (value instanceof List<?> pairs) {
                for (Object pair : pairs) {
                    length += 1 + pairLength((MqttProperties.StringPair) pair);
                }
            } else {
                length += 1 + pairLength((MqttProperties.StringPair) value);
            }
            return length;
        }
        return 1
                + switch (id) {
                    case MqttProperties.PAYLOAD_FORMAT_INDICATOR,
                            MqttProperties.REQUEST_PROBLEM_INFORMATION,
                            MqttProperties.REQUEST_RESPONSE_INFORMATION,
                            MqttProperties.MAXIMUM_QOS,
                            MqttProperties.RETAIN_AVAILABLE,
                            MqttProperties.WILDCARD_SUBSCRIPTION_AVAILABLE,
                            MqttProperties.SUBSCRIPTION_IDENTIFIER_AVAILABLE,
                            MqttProperties.SHARED_SUBSCRIPTION_AVAILABLE -> 1;
                    case MqttProperties.SERVER_KEEP_ALIVE,
                            MqttProperties.RECEIVE_MAXIMUM,
                            MqttProperties.TOPIC_ALIAS_MAXIMUM,
                            MqttProperties.TOPIC_ALIAS -> 2;
                    case MqttProperties.PUBLICATION_EXPIRY_INTERVAL,
                            MqttProperties.SESSION_EXPIRY_INTERVAL,
                            MqttProperties.WILL_DELAY_INTERVAL,
                            MqttProperties.MAXIMUM_PACKET_SIZE -> 4;
                    case MqttProperties.SUBSCRIPTION_IDENTIFIER -> varIntSize((Integer) value);
                    case MqttProperties.CORRELATION_DATA, MqttProperties.AUTHENTICATION_DATA ->
                        2 + (value == null ? 0 : ((byte[]) value).length);
                    default -> 2 + utf8Length((String) value); // every other property is a UTF-8 string
                };
    }

    /** Bytes of a variable byte integer (MQTT 5 section 1.5.5). */
    public static int varIntSize(long value) {
        int size = 1;
        while (value > 127) {
            value >>>= 7;
            size++;
        }
        return size;
    }

    public static int utf8Length(String s) {
        return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static int pairLength(MqttProperties.StringPair pair) {
        return 2 + utf8Length(pair.key) + 2 + utf8Length(pair.value);
    }
}
