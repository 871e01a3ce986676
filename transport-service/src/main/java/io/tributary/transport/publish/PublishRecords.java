package io.tributary.transport.publish;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;

/**
 * Maps an MQTT PUBLISH to the publish record (key = topic, value = payload untouched, metadata in headers) and
 * the headers of a delivered record back to MQTT 5 properties.
 */
public final class PublishRecords {

    private PublishRecords() {
    }

    public static ProducerRecord<byte[], byte[]> toRecord(String topic, byte[] payload, int qos, boolean retain,
            String clientId, MqttVersion version, String nodeId, MqttProperties properties, long receivedAtMillis) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(TopicNames.PUBLISH,
                topic.getBytes(StandardCharsets.UTF_8), payload);
        Headers h = record.headers();
        h.add(new RecordHeader(RecordHeaders.QOS, new byte[] {(byte) qos}));
        h.add(new RecordHeader(RecordHeaders.RETAIN, RecordHeaders.flag(retain)));
        h.add(new RecordHeader(RecordHeaders.CLIENT_ID, RecordHeaders.utf8(clientId)));
        h.add(new RecordHeader(RecordHeaders.PROTOCOL_VERSION, new byte[] {version.protocolLevel()}));
        h.add(new RecordHeader(RecordHeaders.NODE_ID, RecordHeaders.utf8(nodeId)));
        h.add(new RecordHeader(RecordHeaders.RECEIVED_AT, RecordHeaders.int64(receivedAtMillis)));
        if (properties == null || properties.isEmpty()) {
            return record;
        }
        MqttProperties.MqttProperty<?> p;
        if ((p = properties.getProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR)) != null) {
            h.add(new RecordHeader(RecordHeaders.PAYLOAD_FORMAT, new byte[] {((Integer) p.value()).byteValue()}));
        }
        if ((p = properties.getProperty(MqttProperties.CONTENT_TYPE)) != null) {
            h.add(new RecordHeader(RecordHeaders.CONTENT_TYPE, RecordHeaders.utf8((String) p.value())));
        }
        if ((p = properties.getProperty(MqttProperties.RESPONSE_TOPIC)) != null) {
            h.add(new RecordHeader(RecordHeaders.RESPONSE_TOPIC, RecordHeaders.utf8((String) p.value())));
        }
        if ((p = properties.getProperty(MqttProperties.CORRELATION_DATA)) != null) {
            h.add(new RecordHeader(RecordHeaders.CORRELATION_DATA, (byte[]) p.value()));
        }
        if ((p = properties.getProperty(MqttProperties.PUBLICATION_EXPIRY_INTERVAL)) != null) {
            h.add(new RecordHeader(RecordHeaders.MESSAGE_EXPIRY, RecordHeaders.int32((Integer) p.value())));
        }
        for (MqttProperties.MqttProperty<?> user : properties.getProperties(MqttProperties.USER_PROPERTY)) {
            MqttProperties.StringPair pair = ((MqttProperties.UserProperty) user).value();
            h.add(new RecordHeader(RecordHeaders.USER_PROPERTY_PREFIX + pair.key, RecordHeaders.utf8(pair.value)));
        }
        return record;
    }

    /**
     * MQTT 5 properties for delivering a record, or {@code null} when the message expired (MQTT 5 section 3.3.2.3.3:
     * the forwarded expiry interval is the received one minus the time spent waiting).
     */
    public static MqttProperties deliveryProperties(Headers headers, long nowMillis) {
        MqttProperties out = new MqttProperties();
        byte[] b;
        if ((b = RecordHeaders.readBytes(headers, RecordHeaders.PAYLOAD_FORMAT)) != null && b.length == 1) {
            out.add(new MqttProperties.IntegerProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR, (int) b[0]));
        }
        String s;
        if ((s = RecordHeaders.readString(headers, RecordHeaders.CONTENT_TYPE)) != null) {
            out.add(new MqttProperties.StringProperty(MqttProperties.CONTENT_TYPE, s));
        }
        if ((s = RecordHeaders.readString(headers, RecordHeaders.RESPONSE_TOPIC)) != null) {
            out.add(new MqttProperties.StringProperty(MqttProperties.RESPONSE_TOPIC, s));
        }
        if ((b = RecordHeaders.readBytes(headers, RecordHeaders.CORRELATION_DATA)) != null) {
            out.add(new MqttProperties.BinaryProperty(MqttProperties.CORRELATION_DATA, b));
        }
        Integer expiry = RecordHeaders.readInt(headers, RecordHeaders.MESSAGE_EXPIRY);
        if (expiry != null) {
            Long receivedAt = RecordHeaders.readLong(headers, RecordHeaders.RECEIVED_AT);
            long waitedSeconds = receivedAt == null ? 0 : Math.max(0, (nowMillis - receivedAt) / 1000);
            long remaining = Integer.toUnsignedLong(expiry) - waitedSeconds;
            if (remaining <= 0) {
                return null;
            }
            out.add(new MqttProperties.IntegerProperty(MqttProperties.PUBLICATION_EXPIRY_INTERVAL, (int) remaining));
        }
        MqttProperties.UserProperties users = null;
        for (Header header : headers) {
            if (header.key().startsWith(RecordHeaders.USER_PROPERTY_PREFIX)) {
                if (users == null) {
                    users = new MqttProperties.UserProperties();
                }
                users.add(header.key().substring(RecordHeaders.USER_PROPERTY_PREFIX.length()),
                        new String(header.value(), StandardCharsets.UTF_8));
            }
        }
        if (users != null) {
            for (MqttProperties.StringPair pair : (List<MqttProperties.StringPair>) users.value()) {
                out.add(new MqttProperties.UserProperty(pair.key, pair.value));
            }
        }
        return out;
    }

    /** QoS carried in a record's headers (0 when absent). */
    public static int qosOf(Headers headers) {
        return RecordHeaders.readQos(headers);
    }
}
