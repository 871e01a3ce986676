package io.tributary.transport.publish;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.tributary.common.kafka.RetainedRecordFormat;
import io.tributary.kafka.tracing.Hop;
import io.tributary.transport.backpressure.UplinkBudget;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.InboundAcks;
import io.tributary.transport.mapping.MappingRules;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.qos2.ExactlyOnceQos2;
import io.tributary.transport.qos2.Qos2Markers;
import io.tributary.transport.trace.PublishTracing;
import io.tributary.transport.uplink.PublishProducer;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Stores an accepted PUBLISH in Kafka: one record, plus one per matching mapping rule ({@link MappingRules}) and a
 * retained copy, counted against the {@link UplinkBudget} until Kafka answers. QoS 0 is sent and forgotten; QoS 1/2
 * are acknowledged ({@link InboundQos2Exchange#settle}) only once Kafka has stored all of them, in one transaction for
 * exactly-once QoS 2 ({@link ExactlyOnceQos2}).
 */
final class PublishToKafka {

    private final String nodeId;
    private final PublishProducer producer;
    private final TransportMetrics metrics;
    private final UplinkBudget budget;
    private final MappingRules mappings;
    private final PublishTracing tracing;
    /** Null: QoS 2 is de-duplicated through Redis only (docs/guarantees.md). */
    private final ExactlyOnceQos2 exactlyOnce;

    private final InboundQos2Exchange acks;
    private final PublishRefusals refusals;

    PublishToKafka(InboundPublishServices services, InboundQos2Exchange acks, PublishRefusals refusals) {
        this.nodeId = services.nodeId();
        this.producer = services.producer();
        this.metrics = services.metrics();
        this.budget = services.budget();
        this.mappings = services.mappings();
        this.tracing = services.tracing();
        this.exactlyOnce = services.exactlyOnce();
        this.acks = acks;
        this.refusals = refusals;
    }

    /**
     * @param topic   the internal topic name (mounted in the tenant's namespace)
     * @param payload the PUBLISH's payload, copied out of its buffer
     */
    void store(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            MqttPublishMessage publish,
            String topic,
            byte[] payload) {
        int qos = publish.fixedHeader().qosLevel().value();
        int packetId = publish.variableHeader().packetId();
        if (qos == 2) {
            connection.inbound().openQos2(packetId);
        }
        Traced traced = records(connection, publish, topic, payload);
        var records = traced.records();
        Hop hop = traced.hop();
        String unavailable = records.size() == 1 ? null : mappings.unavailableTopic(records);
        if (unavailable != null) {
            hop.end();
            refusals.refuseUnmappable(ctx, connection, unavailable, qos, packetId);
            return;
        }
        // Counted until Kafka answers; past the limits this stops reading from the client (TCP backpressure).
        long size = 0;
        for (var r : records) {
            size += UplinkBudget.sizeOf(r);
        }
        UplinkBudget.Release release = budget.acquire(ctx.channel(), connection.uplinkAccount(), size);
        if (qos == 0) {
            producer.sendAll(records, failure -> {
                release.run();
                hop.end(failure);
                if (failure != null) {
                    metrics.dropped("kafka_qos0");
                } else {
                    connection.meter().in(payload.length);
                }
            });
            return;
        }
        Pending pending = new Pending(connection.inbound().expectAck(packetId, qos), release, hop);
        if (qos == 2 && acks.exactlyOnce(connection)) {
            storeExactlyOnce(ctx, connection, publish, topic, payload, records, pending);
            return;
        }
        producer.sendAll(records, failure -> {
            release.run();
            hop.end(failure);
            if (failure == null) {
                // Metered once Kafka has stored it: what the PUBACK / PUBREC will acknowledge.
                connection.meter().in(payload.length);
            }
            ctx.executor().execute(() -> acks.settle(ctx, connection, pending.slot(), packetId, qos, failure));
        });
    }

    /**
     * The PUBLISH's record, with the copies the mapping rules ask for: the same message also goes to the user's Kafka
     * topics, and a retained one to the retained topic (the retained store reads only that). They are acknowledged
     * only when all are stored, in one transaction for exactly-once QoS 2.
     */
    private Traced records(ClientConnection connection, MqttPublishMessage publish, String topic, byte[] payload) {
        var record = PublishRecords.toRecord(
                topic,
                payload,
                publish.fixedHeader().qosLevel().value(),
                publish.fixedHeader().isRetain(),
                connection.clientId(),
                connection.version(),
                nodeId,
                connection.isMqtt5() ? publish.variableHeader().properties() : null,
                System.currentTimeMillis());
        // Before the mapped copies are made, so they carry the same trace context. Hop.NONE when tracing is off.
        Hop hop = tracing.begin(record, topic, connection.clientId());
        return new Traced(
                RetainedRecordFormat.withCopies(mappings.recordsFor(topic, connection.clientId(), record)), hop);
    }

    /** One transaction with the mapped copies and the session's marker; a re-sent one may turn out a duplicate. */
    private void storeExactlyOnce(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            MqttPublishMessage publish,
            String topic,
            byte[] payload,
            List<ProducerRecord<byte[], byte[]>> records,
            Pending pending) {
        int packetId = publish.variableHeader().packetId();
        String key = Qos2Markers.key(connection.clientId(), connection.inbound().qos2Incarnation(), packetId);
        exactlyOnce.store(
                records,
                key,
                Qos2Markers.digest(topic, payload),
                publish.fixedHeader().isDup(),
                (failure, duplicate) -> {
                    pending.release().run();
                    pending.hop().end(failure);
                    if (failure == null && !duplicate) {
                        // A duplicate was stored (and metered) by the node that took the first copy.
                        connection.meter().in(payload.length);
                    }
                    ctx.executor().execute(() -> {
                        if (duplicate) {
                            // Stored by a node that died before its PUBREC: acknowledged, not stored again.
                            metrics.qos2Duplicate();
                        }
                        acks.settle(ctx, connection, pending.slot(), packetId, 2, failure);
                    });
                });
    }

    /** The records of one PUBLISH and the span of their way into Kafka. */
    private record Traced(List<ProducerRecord<byte[], byte[]>> records, Hop hop) {}

    /** What a QoS 1/2 PUBLISH holds until Kafka answers: its acknowledgement slot, its budget and its span. */
    private record Pending(InboundAcks.Slot slot, UplinkBudget.Release release, Hop hop) {}
}
