package io.tributary.transport.trace;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TraceContext;
import io.tributary.kafka.tracing.Hop;
import io.tributary.kafka.tracing.HopTracing;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * The trace context of an accepted PUBLISH's publish record, set before its mapped copies are made (so they carry
 * the same): with tracing on, the {@code publish} span (PUBLISH received to Kafka's acknowledgement of all its
 * records) is a child of the publisher's {@code traceparent} and becomes the records' parent; a PUBLISH without one
 * starts a trace only when generation is on. With tracing off, generation writes a random sampled
 * {@code traceparent}, and nothing else happens.
 */
public final class PublishTracing {

    public static final PublishTracing OFF = new PublishTracing(HopTracing.OFF, false);

    public static final String SPAN = "publish";
    /** The span of delivering one message to its subscribers on this node (live or from a session queue). */
    public static final String DELIVER_SPAN = "deliver";

    public static final AttributeKey<String> MQTT_TOPIC = AttributeKey.stringKey("mqtt.topic");
    public static final AttributeKey<String> MQTT_CLIENT_ID = AttributeKey.stringKey("mqtt.client_id");

    private final HopTracing tracing;
    private final boolean generate;

    /** @param generate give a PUBLISH without a valid {@code traceparent} a new trace context */
    public PublishTracing(HopTracing tracing, boolean generate) {
        this.tracing = tracing;
        this.generate = generate;
    }

    /** Sets the trace context of {@code record}; returns its hop, to be ended once Kafka has answered. */
    public Hop begin(ProducerRecord<byte[], byte[]> record, String topic, String clientId) {
        Headers headers = record.headers();
        if (tracing.enabled()) {
            Hop hop = tracing.continueTrace(SPAN, SpanKind.PRODUCER, headers);
            if (hop == Hop.NONE && generate) {
                hop = tracing.startTrace(SPAN, SpanKind.PRODUCER, headers);
            }
            return hop.attribute(MQTT_TOPIC, topic).attribute(MQTT_CLIENT_ID, clientId);
        }
        if (generate && headers.lastHeader(RecordHeaders.TRACEPARENT) == null) {
            headers.add(RecordHeaders.TRACEPARENT, RecordHeaders.utf8(TraceContext.generate()));
        }
        return Hop.NONE;
    }
}
