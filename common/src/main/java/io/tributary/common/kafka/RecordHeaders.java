package io.tributary.common.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Header names carried by publish and downlink records, and typed accessors. MQTT metadata travels in headers so
 * that the record value stays the untouched payload and any Kafka consumer can read MQTT traffic as is.
 *
 * <p>Integers are 4-byte big-endian, strings UTF-8, flags one byte (0 or 1). MQTT 5 user properties are one header
 * each, {@link #USER_PROPERTY_PREFIX} + name, in their original order (Kafka keeps header order).
 */
public final class RecordHeaders {

    // --- MQTT metadata (publish and downlink records) ---
    public static final String QOS = "mqtt.qos";
    public static final String RETAIN = "mqtt.retain";
    public static final String CLIENT_ID = "mqtt.client-id";
    public static final String PROTOCOL_VERSION = "mqtt.protocol-version";
    public static final String NODE_ID = "tributary.node-id";
    /** Publish time in epoch millis, set by the transport node that received the PUBLISH. */
    public static final String RECEIVED_AT = "tributary.received-at";
    public static final String PAYLOAD_FORMAT = "mqtt5.payload-format";
    public static final String CONTENT_TYPE = "mqtt5.content-type";
    public static final String RESPONSE_TOPIC = "mqtt5.response-topic";
    public static final String CORRELATION_DATA = "mqtt5.correlation-data";
    public static final String MESSAGE_EXPIRY = "mqtt5.message-expiry";
    public static final String USER_PROPERTY_PREFIX = "mqtt5.user.";
    /**
     * The MQTT topic name, on records written to a user's topic by a mapping rule, whose key may be something else.
     * Records on {@link TopicNames#PUBLISH} do not carry it: their key is the topic.
     */
    public static final String MQTT_TOPIC = "mqtt.topic";

    // --- downlink control ---
    /** Kind of downlink record: see {@link DownlinkType}. Absent means {@link DownlinkType#PUBLISH}. */
    public static final String DOWNLINK_TYPE = "tributary.type";
    /** Session epoch for takeover / disconnect commands, and for subscription tombstones. */
    public static final String EPOCH = "tributary.epoch";
    /** Reason code (MQTT 5) the transport should send when closing a client because of a command. */
    public static final String REASON_CODE = "tributary.reason-code";

    /**
     * On downlink deliveries: the shared-subscription members this node must deliver the message to, as chosen by
     * the router (one member per share group). See {@link io.tributary.common.subscription.SharedTargets}. Absent
     * when no share group of this node was chosen; normal subscriptions never depend on it.
     */
    public static final String SHARED_TARGETS = "tributary.shared-targets";

    /**
     * On downlink deliveries: the persistent sessions on this node for which the router appended the message to
     * their session queue, with the queue sequence it got (see {@link io.tributary.common.queue.QueuedNotice}).
     * Those clients are served from their queue, never from the record itself.
     */
    public static final String QUEUED = "tributary.queued";

    private RecordHeaders() {
    }

    public static byte[] int32(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    public static byte[] int64(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    public static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] flag(boolean value) {
        return new byte[] {(byte) (value ? 1 : 0)};
    }

    public static Integer readInt(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        if (h == null || h.value() == null || h.value().length != 4) {
            return null;
        }
        return ByteBuffer.wrap(h.value()).getInt();
    }

    /** The {@link #QOS} header (one byte), 0 when absent or malformed. */
    public static int readQos(Headers headers) {
        Header h = headers.lastHeader(QOS);
        return h == null || h.value() == null || h.value().length != 1 ? 0 : Math.min(2, Math.max(0, h.value()[0]));
    }

    public static Long readLong(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        if (h == null || h.value() == null || h.value().length != 8) {
            return null;
        }
        return ByteBuffer.wrap(h.value()).getLong();
    }

    public static String readString(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    public static boolean readFlag(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h != null && h.value() != null && h.value().length == 1 && h.value()[0] != 0;
    }

    public static byte[] readBytes(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null ? null : h.value();
    }
}
