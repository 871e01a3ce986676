package io.tributary.transport.publish;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.kafka.PublishProperties;
import io.tributary.common.kafka.PublishRecordFormat;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.session.ConnectApi;
import io.tributary.transport.connection.MessagePropertyCheck;
import io.tributary.transport.connection.WillMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Maps an MQTT PUBLISH to the publish record (the format is defined once, in common {@link PublishRecordFormat})
 * and the headers of a delivered record back to MQTT 5 properties.
 */
public final class PublishRecords {

    private PublishRecords() {}

    public static ProducerRecord<byte[], byte[]> toRecord(
            String topic,
            byte[] payload,
            int qos,
            boolean retain,
            String clientId,
            MqttVersion version,
            String nodeId,
            MqttProperties properties,
            long receivedAtMillis) {
        return PublishRecordFormat.toRecord(
                topic,
                payload,
                qos,
                retain,
                clientId,
                version.protocolLevel(),
                nodeId,
                publishProperties(properties),
                receivedAtMillis);
    }

    /** A will as session-service stores it, to publish it itself (delayed) in the same record form. */
    public static ConnectApi.Will willForSession(WillMessage will) {
        return new ConnectApi.Will(
                will.topic(),
                will.payload(),
                will.qos(),
                will.retain(),
                will.delaySeconds(),
                publishProperties(will.properties()));
    }

    /**
     * The properties of a PUBLISH (or will) that travel with the message, in the library-neutral form of the
     * record contract; null when there are none. Other properties (topic alias, subscription identifier, will
     * delay) are not part of the message.
     */
    public static PublishProperties publishProperties(MqttProperties properties) {
        if (properties == null || properties.isEmpty()) {
            return null;
        }
        MqttProperties.MqttProperty<?> p;
        Integer payloadFormat = (p = properties.getProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR)) == null
                ? null
                : (Integer) p.value();
        String contentType =
                (p = properties.getProperty(MqttProperties.CONTENT_TYPE)) == null ? null : (String) p.value();
        String responseTopic =
                (p = properties.getProperty(MqttProperties.RESPONSE_TOPIC)) == null ? null : (String) p.value();
        byte[] correlation =
                (p = properties.getProperty(MqttProperties.CORRELATION_DATA)) == null ? null : (byte[]) p.value();
        Long expiry = (p = properties.getProperty(MqttProperties.PUBLICATION_EXPIRY_INTERVAL)) == null
                ? null
                : Integer.toUnsignedLong((Integer) p.value());
        List<PublishProperties.UserProperty> users = new ArrayList<>();
        for (MqttProperties.MqttProperty<?> user : properties.getProperties(MqttProperties.USER_PROPERTY)) {
            MqttProperties.StringPair pair = ((MqttProperties.UserProperty) user).value();
            users.add(new PublishProperties.UserProperty(pair.key, pair.value));
        }
        PublishProperties out =
                new PublishProperties(payloadFormat, contentType, responseTopic, correlation, expiry, users);
        return out.isEmpty() ? null : out;
    }

    /**
     * MQTT 5 properties for delivering a record, or {@code null} when the message expired (MQTT 5 section 3.3.2.3.3:
     * the forwarded expiry interval is the received one minus the time spent waiting).
     */
    public static MqttProperties deliveryProperties(Headers headers, long nowMillis) {
        MqttProperties out = new MqttProperties();
        Integer payloadFormat = RecordHeaders.readInt8(headers, RecordHeaders.PAYLOAD_FORMAT);
        if (payloadFormat != null) {
            out.add(new MqttProperties.IntegerProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR, payloadFormat));
        }
        byte[] b;
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
        Long expiry = RecordHeaders.readUnsignedInt(headers, RecordHeaders.MESSAGE_EXPIRY);
        if (expiry != null) {
            Long receivedAt = RecordHeaders.readLong(headers, RecordHeaders.RECEIVED_AT);
            long waitedSeconds = receivedAt == null ? 0 : Math.max(0, (nowMillis - receivedAt) / 1000);
            long remaining = expiry - waitedSeconds;
            if (remaining <= 0) {
                return null;
            }
            out.add(new MqttProperties.IntegerProperty(MqttProperties.PUBLICATION_EXPIRY_INTERVAL, (int) remaining));
        }
        MqttProperties.UserProperties users = null;
        boolean traceparentSent = false;
        for (Header header : headers) {
            if (header.key().startsWith(RecordHeaders.USER_PROPERTY_PREFIX)) {
                if (users == null) {
                    users = new MqttProperties.UserProperties();
                }
                String name = header.key().substring(RecordHeaders.USER_PROPERTY_PREFIX.length());
                traceparentSent |= name.equals(RecordHeaders.TRACEPARENT);
                users.add(name, new String(header.value(), StandardCharsets.UTF_8));
            }
        }
        // A trace context the publisher did not send as a user property (generated by the node, or put on a record
        // by another Kafka producer) reaches MQTT 5 subscribers as the user properties W3C-aware clients look for.
        String traceparent;
        if (!traceparentSent && (traceparent = RecordHeaders.readString(headers, RecordHeaders.TRACEPARENT)) != null) {
            if (users == null) {
                users = new MqttProperties.UserProperties();
            }
            users.add(RecordHeaders.TRACEPARENT, traceparent);
            String tracestate = RecordHeaders.readString(headers, RecordHeaders.TRACESTATE);
            if (tracestate != null) {
                users.add(RecordHeaders.TRACESTATE, tracestate);
            }
        }
        if (users != null) {
            for (MqttProperties.StringPair pair : (List<MqttProperties.StringPair>) users.value()) {
                out.add(new MqttProperties.UserProperty(pair.key, pair.value));
            }
        }
        return MessagePropertyCheck.deliverable(out);
    }

    /** QoS carried in a record's headers (0 when absent). */
    public static int qosOf(Headers headers) {
        return RecordHeaders.readQos(headers);
    }
}
