package io.tributary.transport.publish;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageIdVariableHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttReasonCodes;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.netty.util.ReferenceCountUtil;
import io.tributary.common.kafka.RetainedRecordFormat;
import io.tributary.kafka.tracing.Hop;
import io.tributary.sessionqueue.InboundQos2Store;
import io.tributary.transport.acl.AclDenials;
import io.tributary.transport.backpressure.UplinkBudget;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.InboundAcks;
import io.tributary.transport.connection.InboundFlow;
import io.tributary.transport.connection.ProblemInformation;
import io.tributary.transport.limits.ClientLimits;
import io.tributary.transport.mapping.MappingRules;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.qos2.ExactlyOnceQos2;
import io.tributary.transport.qos2.Qos2Markers;
import io.tributary.transport.trace.PublishTracing;
import io.tributary.transport.uplink.PublishProducer;

/**
 * Inbound PUBLISH and PUBREL: each PUBLISH becomes one Kafka record, plus one per matching MQTT-to-Kafka mapping
 * rule ({@link MappingRules}); PUBACK / PUBREC go out only after Kafka has acknowledged all of them, in arrival
 * order. A record Kafka refused is never acknowledged: the connection is
 * closed so the client re-sends it (MQTT 4.4). MQTT 5 topic aliases are resolved here, so the record always
 * carries the full topic name. The connection's ACL is checked here, locally, before anything reaches Kafka.
 * What becomes of a PUBLISH is decided by {@link InboundPublishRules} (pure, typed {@link PublishVerdict}s); this
 * handler reads the facts, carries the verdict out and does the I/O.
 *
 * <p>QoS 2 de-duplication (MQTT 4.3.3): the packet ids answered with PUBREC are kept per connection, and for a
 * persistent session also in {@link InboundQos2Store} (Redis), written before PUBREC and removed before PUBCOMP, so a
 * client that reconnects to any node with its session and re-sends a PUBLISH is acknowledged, not stored again.
 * The connection's copy is loaded from the store at CONNECT, so no PUBLISH waits for Redis.
 *
 * <p>Exactly-once into Kafka ({@link ExactlyOnceQos2}, when on): a persistent session's QoS 2 PUBLISH is committed in
 * one Kafka transaction with its mapped copies and its marker (client id, session incarnation, packet id), and a
 * re-sent one (DUP = 1) whose packet id the node has no PUBREC record of — its first node died between Kafka and
 * the Redis write — is produced only if no committed marker (with the same topic and payload digest) says it is
 * stored. PUBREL tombstones the marker in the next transaction, without waiting. QoS 0/1 and non-persistent sessions
 * take the plain path.
 */
@ChannelHandler.Sharable
public final class InboundPublishHandler extends ChannelInboundHandlerAdapter {

    private final String nodeId;
    private final PublishProducer producer;
    private final Disconnector disconnector;
    private final TransportMetrics metrics;
    private final int receiveMaximum;
    private final UplinkBudget budget;
    /** Null: de-duplication per connection only (unit tests without Redis). */
    private final InboundQos2Store qos2Store;

    private final ClientLimits limits;
    private final MappingRules mappings;
    private final PublishTracing tracing;
    /** Null: QoS 2 is de-duplicated through Redis only (docs/guarantees.md). */
    private final ExactlyOnceQos2 exactlyOnce;

    public InboundPublishHandler(
            String nodeId,
            PublishProducer producer,
            Disconnector disconnector,
            TransportMetrics metrics,
            int receiveMaximum,
            UplinkBudget budget) {
        this(nodeId, producer, disconnector, metrics, receiveMaximum, budget, null);
    }

    public InboundPublishHandler(
            String nodeId,
            PublishProducer producer,
            Disconnector disconnector,
            TransportMetrics metrics,
            int receiveMaximum,
            UplinkBudget budget,
            InboundQos2Store qos2Store) {
        this(nodeId, producer, disconnector, metrics, receiveMaximum, budget, qos2Store, ClientLimits.NONE);
    }

    public InboundPublishHandler(
            String nodeId,
            PublishProducer producer,
            Disconnector disconnector,
            TransportMetrics metrics,
            int receiveMaximum,
            UplinkBudget budget,
            InboundQos2Store qos2Store,
            ClientLimits limits) {
        this(
                nodeId,
                producer,
                disconnector,
                metrics,
                receiveMaximum,
                budget,
                qos2Store,
                limits,
                new MappingRules(),
                PublishTracing.OFF);
    }

    /** @param tracing the trace context of the records, and the {@code publish} span when tracing is on */
    public InboundPublishHandler(
            String nodeId,
            PublishProducer producer,
            Disconnector disconnector,
            TransportMetrics metrics,
            int receiveMaximum,
            UplinkBudget budget,
            InboundQos2Store qos2Store,
            ClientLimits limits,
            MappingRules mappings,
            PublishTracing tracing) {
        this(
                nodeId,
                producer,
                disconnector,
                metrics,
                receiveMaximum,
                budget,
                qos2Store,
                limits,
                mappings,
                tracing,
                null);
    }

    /** @param exactlyOnce exactly-once QoS 2 into Kafka for persistent sessions; null for Redis de-duplication only */
    public InboundPublishHandler(
            String nodeId,
            PublishProducer producer,
            Disconnector disconnector,
            TransportMetrics metrics,
            int receiveMaximum,
            UplinkBudget budget,
            InboundQos2Store qos2Store,
            ClientLimits limits,
            MappingRules mappings,
            PublishTracing tracing,
            ExactlyOnceQos2 exactlyOnce) {
        this.exactlyOnce = exactlyOnce;
        this.limits = limits;
        this.mappings = mappings;
        this.tracing = tracing;
        this.qos2Store = qos2Store;
        this.budget = budget;
        this.nodeId = nodeId;
        this.producer = producer;
        this.disconnector = disconnector;
        this.metrics = metrics;
        this.receiveMaximum = receiveMaximum;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof MqttPublishMessage publish) {
            try {
                onPublish(ctx, ClientConnection.of(ctx.channel()), publish);
            } finally {
                ReferenceCountUtil.release(publish);
            }
        } else if (msg instanceof MqttMessage m && m.fixedHeader().messageType() == MqttMessageType.PUBREL) {
            onPubRel(
                    ctx,
                    ClientConnection.of(ctx.channel()),
                    ((MqttMessageIdVariableHeader) m.variableHeader()).messageId());
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void onPublish(ChannelHandlerContext ctx, ClientConnection connection, MqttPublishMessage publish) {
        int qos = publish.fixedHeader().qosLevel().value();
        int packetId = publish.variableHeader().packetId();
        MqttProperties properties = publish.variableHeader().properties();
        boolean v5 = connection.isMqtt5();
        PublishFacts facts = facts(connection, publish, qos, packetId, properties);

        InboundPublishRules.Admission admission = InboundPublishRules.admit(facts);
        if (admission.aliasToDefine() != 0) {
            connection.inbound().defineAlias(admission.aliasToDefine(), facts.topicName());
        }
        if (!(admission.verdict() instanceof PublishVerdict.Accept admitted)) {
            carryOut(ctx, connection, admission.verdict(), qos, packetId);
            return;
        }
        String clientTopic = admitted.topic();
        metrics.publishIn(qos);
        ClientLimits.Refusal limited = InboundPublishRules.checksLimits(facts)
                ? limits.checkPublish(
                        connection,
                        clientTopic,
                        publish.payload().readableBytes(),
                        publish.fixedHeader().isRetain())
                : null;
        byte[] payload = limited == null ? ByteBufUtil.getBytes(publish.payload()) : null;
        PublishVerdict verdict = InboundPublishRules.afterLimits(facts, clientTopic, limited, payload);
        if (!(verdict instanceof PublishVerdict.Accept)) {
            carryOut(ctx, connection, verdict, qos, packetId);
            return;
        }
        // From here on the internal name: a tenant's client's topic is mounted under $tenant/<id>/ (Kafka key,
        // routing, retained store, mapping rules, QoS 2 markers), and the record says which tenant in a header.
        String topic = connection.namespace().topic(clientTopic);
        if (qos == 2) {
            connection.inbound().openQos2(packetId);
        }
        var record = PublishRecords.toRecord(
                topic,
                payload,
                qos,
                publish.fixedHeader().isRetain(),
                connection.clientId(),
                connection.version(),
                nodeId,
                v5 ? properties : null,
                System.currentTimeMillis());
        // Before the mapped copies are made, so they carry the same trace context. Hop.NONE when tracing is off.
        Hop hop = tracing.begin(record, topic, connection.clientId());
        // Mapping rules: the same message also goes to the user's Kafka topics, and a retained one to the retained
        // topic (the retained store reads only that); acknowledged only when all are stored, in one transaction for
        // exactly-once QoS 2.
        var records = RetainedRecordFormat.withCopies(mappings.recordsFor(topic, connection.clientId(), record));
        String unavailable = records.size() == 1 ? null : mappings.unavailableTopic(records);
        if (unavailable != null) {
            hop.end();
            refuseUnmappable(ctx, connection, unavailable, qos, packetId);
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
        InboundAcks.Slot slot = connection.inbound().expectAck(packetId, qos);
        if (qos == 2 && exactlyOnce(connection)) {
            String key =
                    Qos2Markers.key(connection.clientId(), connection.inbound().qos2Incarnation(), packetId);
            exactlyOnce.store(
                    records,
                    key,
                    Qos2Markers.digest(topic, payload),
                    publish.fixedHeader().isDup(),
                    (failure, duplicate) -> {
                        release.run();
                        hop.end(failure);
                        if (failure == null && !duplicate) {
                            // A duplicate was stored (and metered) by the node that took the first copy.
                            connection.meter().in(payload.length);
                        }
                        ctx.executor().execute(() -> {
                            if (duplicate) {
                                // Stored by a node that died before its PUBREC: acknowledged, not stored again.
                                metrics.qos2Duplicate();
                            }
                            settle(ctx, connection, slot, packetId, 2, failure);
                        });
                    });
            return;
        }
        producer.sendAll(records, failure -> {
            release.run();
            hop.end(failure);
            if (failure == null) {
                // Metered once Kafka has stored it: what the PUBACK / PUBREC will acknowledge.
                connection.meter().in(payload.length);
            }
            ctx.executor().execute(() -> settle(ctx, connection, slot, packetId, qos, failure));
        });
    }

    /**
     * A PUBLISH a mapping rule sends to a Kafka topic this node has no metadata for (deleted, or not described yet):
     * not produced at all, since an acknowledgement would promise the mapped copy too. QoS 0 is dropped (counted);
     * QoS 1/2 close the connection unacknowledged, as when Kafka refuses a record, so the client sends it again.
     */
    private void refuseUnmappable(
            ChannelHandlerContext ctx, ClientConnection connection, String kafkaTopic, int qos, int packetId) {
        metrics.dropped("mapping_unavailable");
        if (qos == 2) {
            connection.inbound().releaseQos2(packetId);
        }
        if (qos == 0) {
            return;
        }
        disconnector.disconnect(
                ctx.channel(),
                Disconnect.UNSPECIFIED_ERROR,
                null,
                "a mapping rule writes this publish to Kafka topic '" + kafkaTopic
                        + "', which this node has no metadata for now; not acknowledged");
    }

    /**
     * Carries out a verdict other than {@link PublishVerdict.Accept}.
     *
     * <p>Refusals are never produced to Kafka, and each is counted: {@code $SYS} as {@code sys_topic}; an ACL denial
     * as a publish received and denied (logged once per connection); limits by {@link ClientLimits}. QoS 0 is
     * dropped; QoS 1/2 get their PUBACK / PUBREC in arrival order, behind publishes still waiting for Kafka; a
     * PUBREC with a failure code ends the QoS 2 exchange.
     */
    private void carryOut(
            ChannelHandlerContext ctx, ClientConnection connection, PublishVerdict verdict, int qos, int packetId) {
        if (verdict instanceof PublishVerdict.Disconnect d) {
            disconnector.disconnect(ctx.channel(), d.reason(), d.metricCause(), d.problem());
        } else if (verdict instanceof PublishVerdict.Resent) {
            acknowledgeAgain(ctx, connection, packetId);
        } else if (verdict instanceof PublishVerdict.Refuse r) {
            refuse(ctx, connection, r, qos, packetId);
        } else {
            throw new IllegalArgumentException("not a refusal: " + verdict);
        }
    }

    private void refuse(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            PublishVerdict.Refuse refusal,
            int qos,
            int packetId) {
        switch (refusal.cause()) {
            case SYS_TOPIC -> metrics.dropped("sys_topic");
            case NOT_AUTHORIZED -> {
                metrics.publishIn(qos);
                AclDenials.publishDenied(metrics, connection, refusal.topic());
                if (qos == 0) {
                    metrics.dropped("not_authorized");
                }
            }
            case OVER_LIMIT, PAYLOAD_FORMAT -> {
                // Counted as received before the limits; limits count their refusals themselves.
            }
        }
        if (qos == 0) {
            return;
        }
        if (qos == 2 && refusal.keepsQos2Id() && !connection.inbound().openQos2(packetId)) {
            acknowledgeAgain(ctx, connection, packetId);
            return;
        }
        connection
                .inbound()
                .acknowledgeInOrder(
                        packetId,
                        qos,
                        refusal.reason().byteValue(),
                        ProblemInformation.forAck(connection, refusal.problem()));
    }

    /**
     * A re-sent QoS 2 PUBLISH (MQTT 4.3.3): already taken once, so only acknowledged again; while its first copy
     * still waits for Kafka, that copy's PUBREC answers both.
     */
    private void acknowledgeAgain(ChannelHandlerContext ctx, ClientConnection connection, int packetId) {
        if (!connection.inbound().storing(packetId)) {
            ctx.writeAndFlush(InboundAcks.reply(MqttMessageType.PUBREC, packetId, (byte) 0, connection.isMqtt5()));
        }
    }

    /** What the rules need, read from the PUBLISH and the connection; nothing changes here. */
    private PublishFacts facts(
            ClientConnection connection, MqttPublishMessage publish, int qos, int packetId, MqttProperties properties) {
        boolean v5 = connection.isMqtt5();
        String topicName = publish.variableHeader().topicName();
        Integer alias = null;
        if (v5) {
            MqttProperties.MqttProperty<?> aliasProperty = properties.getProperty(MqttProperties.TOPIC_ALIAS);
            alias = aliasProperty == null ? null : (Integer) aliasProperty.value();
        }
        InboundFlow flow = connection.inbound();
        return new PublishFacts(
                v5,
                qos,
                packetId,
                topicName,
                alias,
                v5 && properties.getProperty(MqttProperties.SUBSCRIPTION_IDENTIFIER) != null,
                v5 && isUtf8Declared(properties),
                v5 ? flow.resolveTopic(topicName, alias) : null,
                flow.exceedsReceiveMaximum(qos, packetId, receiveMaximum),
                receiveMaximum,
                connection.permissions(),
                qos == 2 && flow.awaitingRelease(packetId));
    }

    private void settle(
            ChannelHandlerContext ctx,
            ClientConnection connection,
            InboundAcks.Slot slot,
            int packetId,
            int qos,
            Exception failure) {
        if (failure == null && qos == 2 && persistent(connection)) {
            // Recorded even when the connection is gone meanwhile: the client may re-send it to another node.
            qos2Store
                    .recordInboundQos2(connection.clientId(), packetId)
                    .whenComplete((recorded, error) -> ctx.executor().execute(() -> {
                        if (error != null) {
                            // Without the record a re-send after a reconnect would be stored twice: no PUBREC.
                            metrics.sessionQueueFailure();
                            disconnector.disconnect(
                                    ctx.channel(),
                                    Disconnect.UNSPECIFIED_ERROR,
                                    null,
                                    "QoS 2 packet id " + packetId + " could not be recorded: " + error);
                            return;
                        }
                        connection.inbound().acknowledge(slot);
                    }));
        } else if (failure == null) {
            connection.inbound().acknowledge(slot);
        } else {
            if (qos == 2) {
                connection.inbound().releaseQos2(packetId);
            }
            disconnector.disconnect(
                    ctx.channel(),
                    Disconnect.UNSPECIFIED_ERROR,
                    null,
                    "Kafka did not store a QoS " + qos + " publish, not acknowledged: " + failure.getMessage());
        }
    }

    private void onPubRel(ChannelHandlerContext ctx, ClientConnection connection, int packetId) {
        if (connection.inbound().awaitingRelease(packetId) && exactlyOnce(connection)) {
            exactlyOnce.release(
                    Qos2Markers.key(connection.clientId(), connection.inbound().qos2Incarnation(), packetId));
        }
        releaseInRedis(ctx, connection, packetId);
    }

    private void releaseInRedis(ChannelHandlerContext ctx, ClientConnection connection, int packetId) {
        if (connection.inbound().awaitingRelease(packetId) && persistent(connection)) {
            // Forgotten in Redis before PUBCOMP: once the client has PUBCOMP it may reuse the id for a new message.
            qos2Store
                    .releaseInboundQos2(connection.clientId(), packetId)
                    .whenComplete((n, error) -> ctx.executor().execute(() -> {
                        if (error != null) {
                            // The client re-sends PUBREL after reconnecting, and gets its PUBCOMP then.
                            metrics.sessionQueueFailure();
                            disconnector.disconnect(
                                    ctx.channel(),
                                    Disconnect.UNSPECIFIED_ERROR,
                                    null,
                                    "PUBREL " + packetId + " could not be recorded: " + error);
                            return;
                        }
                        pubComp(ctx, connection, packetId);
                    }));
            return;
        }
        pubComp(ctx, connection, packetId);
    }

    private void pubComp(ChannelHandlerContext ctx, ClientConnection connection, int packetId) {
        boolean known = connection.inbound().releaseQos2(packetId);
        byte code =
                known || !connection.isMqtt5() ? 0 : MqttReasonCodes.PubComp.PACKET_IDENTIFIER_NOT_FOUND.byteValue();
        ctx.writeAndFlush(InboundAcks.reply(
                MqttMessageType.PUBCOMP,
                packetId,
                code,
                ProblemInformation.forAck(connection, known ? null : "no QoS 2 publish with packet id " + packetId),
                connection.isMqtt5()));
    }

    /** Exactly-once into Kafka applies to persistent sessions whose incarnation was read at CONNECT. */
    private boolean exactlyOnce(ClientConnection connection) {
        return exactlyOnce != null
                && persistent(connection)
                && connection.inbound().qos2Incarnation() != null;
    }

    /** A session that outlives its connection keeps its QoS 2 packet ids in the store too. */
    private boolean persistent(ClientConnection connection) {
        return qos2Store != null && connection.queueBacked();
    }

    private static boolean isUtf8Declared(MqttProperties properties) {
        MqttProperties.MqttProperty<?> p = properties.getProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR);
        return p != null && Integer.valueOf(1).equals(p.value());
    }
}
