package io.tributary.common.kafka;

import io.tributary.common.sys.SysTopics;
import io.tributary.common.tenant.TenantTopics;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The one definition of a record on {@link TopicNames#PUBLISH}: key = MQTT topic (UTF-8), value = the payload
 * untouched, MQTT metadata in {@link RecordHeaders} in a fixed order. Transport nodes use it for every PUBLISH and
 * for wills they publish themselves; session-service for the wills it publishes (delayed wills, wills of clients
 * whose node died). Routing and the retained store cannot tell the two apart, which is the point.
 */
public final class PublishRecordFormat {

    private PublishRecordFormat() {}

    /**
     * @param protocolLevel    MQTT protocol level of the publishing client (3, 4 or 5)
     * @param nodeId           transport node the message came in through (for a will: the node that held the
     *                         connection)
     * @param properties       MQTT 5 properties, or null (always null for MQTT 3.x clients)
     * @param receivedAtMillis when the message entered the broker; the message expiry counts from here
     */
    public static ProducerRecord<byte[], byte[]> toRecord(
            String topic,
            byte[] payload,
            int qos,
            boolean retain,
            String clientId,
            int protocolLevel,
            String nodeId,
            PublishProperties properties,
            long receivedAtMillis) {
        ProducerRecord<byte[], byte[]> record =
                new ProducerRecord<>(TopicNames.PUBLISH, topic.getBytes(StandardCharsets.UTF_8), payload);
        Headers h = record.headers();
        h.add(new RecordHeader(RecordHeaders.QOS, RecordHeaders.int8(qos)));
        h.add(new RecordHeader(RecordHeaders.RETAIN, RecordHeaders.flag(retain)));
        h.add(new RecordHeader(RecordHeaders.CLIENT_ID, RecordHeaders.utf8(clientId)));
        h.add(new RecordHeader(RecordHeaders.PROTOCOL_VERSION, RecordHeaders.int8(protocolLevel)));
        h.add(new RecordHeader(RecordHeaders.NODE_ID, RecordHeaders.utf8(nodeId)));
        h.add(new RecordHeader(RecordHeaders.RECEIVED_AT, RecordHeaders.int64(receivedAtMillis)));
        String tenant = TenantTopics.tenantOf(topic);
        if (tenant != null) {
            h.add(new RecordHeader(RecordHeaders.TENANT, RecordHeaders.utf8(tenant)));
        }
        if (properties == null) {
            return record;
        }
        if (properties.payloadFormat() != null) {
            h.add(new RecordHeader(RecordHeaders.PAYLOAD_FORMAT, RecordHeaders.int8(properties.payloadFormat())));
        }
        if (properties.contentType() != null) {
            h.add(new RecordHeader(RecordHeaders.CONTENT_TYPE, RecordHeaders.utf8(properties.contentType())));
        }
        if (properties.responseTopic() != null) {
            h.add(new RecordHeader(RecordHeaders.RESPONSE_TOPIC, RecordHeaders.utf8(properties.responseTopic())));
        }
        if (properties.correlationData() != null) {
            // Opaque bytes in MQTT: copied raw in both header formats.
            h.add(new RecordHeader(RecordHeaders.CORRELATION_DATA, properties.correlationData()));
        }
        if (properties.messageExpirySeconds() != null) {
            // The unsigned 32-bit value MQTT carries (decimal, or its 4 bytes in the binary form).
            h.add(new RecordHeader(
                    RecordHeaders.MESSAGE_EXPIRY, RecordHeaders.uint32(properties.messageExpirySeconds())));
        }
        String traceparent = null;
        String tracestate = null;
        for (PublishProperties.UserProperty user : properties.userProperties()) {
            h.add(new RecordHeader(RecordHeaders.USER_PROPERTY_PREFIX + user.name(), RecordHeaders.utf8(user.value())));
            if (traceparent == null && user.name().equals(RecordHeaders.TRACEPARENT)) {
                traceparent = user.value();
            } else if (tracestate == null && user.name().equals(RecordHeaders.TRACESTATE)) {
                tracestate = user.value();
            }
        }
        // A malformed traceparent stays a user property only: W3C tells receivers to ignore it.
        if (TraceContext.isValidTraceparent(traceparent)) {
            h.add(new RecordHeader(RecordHeaders.TRACEPARENT, RecordHeaders.utf8(traceparent)));
            if (tracestate != null) {
                h.add(new RecordHeader(RecordHeaders.TRACESTATE, RecordHeaders.utf8(tracestate)));
            }
        }
        return record;
    }

    /**
     * One {@code $SYS} statistic ({@link SysTopics}) as a retained QoS 0 publish record, MQTT 3.1.1 style (no
     * properties), from no client.
     */
    public static ProducerRecord<byte[], byte[]> sysStatistic(
            String topic, String value, String nodeId, long nowMillis) {
        return toRecord(
                topic,
                value.getBytes(StandardCharsets.UTF_8),
                0,
                true,
                SysTopics.CLIENT_ID,
                4,
                nodeId,
                null,
                nowMillis);
    }
}
