package io.tributary.transport.publish;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageIdVariableHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.netty.handler.codec.mqtt.MqttReasonCodes;
import io.netty.util.ReferenceCountUtil;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TraceContext;
import io.tributary.common.sys.SysTopics;
import io.tributary.common.topic.TopicFilters;
import io.tributary.transport.acl.AclDenials;
import io.tributary.transport.alias.InboundTopicAliases;
import io.tributary.transport.backpressure.UplinkBudget;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.InboundAcks;
import io.tributary.transport.connection.ProblemInformation;
import io.tributary.transport.limits.ClientLimits;
import io.tributary.transport.mapping.MappingRules;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.qos2.ExactlyOnceQos2;
import io.tributary.transport.qos2.Qos2Markers;
import io.tributary.transport.uplink.PublishProducer;

/**
 * Inbound PUBLISH and PUBREL: each PUBLISH becomes one Kafka record, plus one per matching MQTT-to-Kafka mapping
 * rule ({@link MappingRules}); PUBACK / PUBREC go out only after Kafka has acknowledged all of them, in arrival
 * order. A record Kafka refused is never acknowledged: the connection is
 * closed so the client re-sends it (MQTT 4.4). MQTT 5 topic aliases are resolved here, so the record always
 * carries the full topic name. The connection's ACL is checked here, locally, before anything reaches Kafka.
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

    /** MQTT 5 PUBACK / PUBREC Not authorized (the same code for both). */
    private static final byte NOT_AUTHORIZED = MqttReasonCodes.PubAck.NOT_AUTHORIZED.byteValue();
    /** MQTT 5 PUBACK / PUBREC Payload format invalid (the same code for both). */
    private static final byte PAYLOAD_FORMAT_INVALID = MqttReasonCodes.PubAck.PAYLOAD_FORMAT_INVALID.byteValue();

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
    private final boolean generateTraceparent;
    /** Null: QoS 2 is de-duplicated through Redis only (docs/guarantees.md). */
    private final ExactlyOnceQos2 exactlyOnce;

    public InboundPublishHandler(String nodeId, PublishProducer producer, Disconnector disconnector,
            TransportMetrics metrics, int receiveMaximum, UplinkBudget budget) {
        this(nodeId, producer, disconnector, metrics, receiveMaximum, budget, null);
    }

    public InboundPublishHandler(String nodeId, PublishProducer producer, Disconnector disconnector,
            TransportMetrics metrics, int receiveMaximum, UplinkBudget budget, InboundQos2Store qos2Store) {
        this(nodeId, producer, disconnector, metrics, receiveMaximum, budget, qos2Store, ClientLimits.NONE);
    }

    public InboundPublishHandler(String nodeId, PublishProducer producer, Disconnector disconnector,
            TransportMetrics metrics, int receiveMaximum, UplinkBudget budget, InboundQos2Store qos2Store,
            ClientLimits limits) {
        this(nodeId, producer, disconnector, metrics, receiveMaximum, budget, qos2Store, limits, new MappingRules(),
                false);
    }

    /**
     * @param generateTraceparent give records of a PUBLISH without a valid {@code traceparent} user property a new
     *                            {@code traceparent} header
     */
    public InboundPublishHandler(String nodeId, PublishProducer producer, Disconnector disconnector,
            TransportMetrics metrics, int receiveMaximum, UplinkBudget budget, InboundQos2Store qos2Store,
            ClientLimits limits, MappingRules mappings, boolean generateTraceparent) {
        this(nodeId, producer, disconnector, metrics, receiveMaximum, budget, qos2Store, limits, mappings,
                generateTraceparent, null);
    }

    /** @param exactlyOnce exactly-once QoS 2 into Kafka for persistent sessions; null for Redis de-duplication only */
    public InboundPublishHandler(String nodeId, PublishProducer producer, Disconnector disconnector,
            TransportMetrics metrics, int receiveMaximum, UplinkBudget budget, InboundQos2Store qos2Store,
            ClientLimits limits, MappingRules mappings, boolean generateTraceparent, ExactlyOnceQos2 exactlyOnce) {
        this.exactlyOnce = exactlyOnce;
        this.limits = limits;
        this.mappings = mappings;
        this.generateTraceparent = generateTraceparent;
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
            onPubRel(ctx, ClientConnection.of(ctx.channel()), ((MqttMessageIdVariableHeader) m.variableHeader())
                    .messageId());
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void onPublish(ChannelHandlerContext ctx, ClientConnection connection, MqttPublishMessage publish) {
        int qos = publish.fixedHeader().qosLevel().value();
        int packetId = publish.variableHeader().packetId();
        MqttProperties properties = publish.variableHeader().properties();
        boolean v5 = connection.isMqtt5();

        String topic = publish.variableHeader().topicName();
        Integer alias = null;
        if (v5) {
            if (properties.getProperty(MqttProperties.SUBSCRIPTION_IDENTIFIER) != null) {
                // MQTT 5 section 3.3.4: only the server puts subscription identifiers on a PUBLISH.
                disconnector.disconnect(ctx.channel(), Disconnect.PROTOCOL_ERROR, "protocol_error",
                        "PUBLISH from a client with a Subscription Identifier");
                return;
            }
            MqttProperties.MqttProperty<?> aliasProperty = properties.getProperty(MqttProperties.TOPIC_ALIAS);
            alias = aliasProperty == null ? null : (Integer) aliasProperty.value();
            InboundTopicAliases.Resolution resolved = connection.inbound().resolveTopic(topic, alias);
            if (resolved.failed()) {
                disconnector.disconnect(ctx.channel(), resolved.reasonCode(),
                        resolved.reasonCode() == Disconnect.TOPIC_ALIAS_INVALID.byteValue()
                                ? "topic_alias_invalid" : "protocol_error",
                        resolved.problem());
                return;
            }
            topic = resolved.topic();
        }
        String problem = TopicFilters.topicNameProblem(topic);
        if (problem != null) {
            disconnector.disconnect(ctx.channel(), Disconnect.TOPIC_NAME_INVALID,
                    "invalid_topic", "PUBLISH " + problem);
            return;
        }
        if (alias != null && !publish.variableHeader().topicName().isEmpty()) {
            connection.inbound().defineAlias(alias, topic);
        }
        if (connection.inbound().exceedsReceiveMaximum(qos, packetId, receiveMaximum)) {
            disconnector.disconnect(ctx.channel(), Disconnect.RECEIVE_MAXIMUM_EXCEEDED,
                    "receive_maximum", "more than " + receiveMaximum + " unacknowledged QoS 1/2 publishes");
            return;
        }
        if (SysTopics.isSys(topic)) {
            refuseSys(ctx, connection, topic, packetId, qos);
            return;
        }
        if (!connection.permissions().mayPublish(topic)) {
            metrics.publishIn(qos);
            deny(ctx, connection, topic, qos, packetId, v5);
            return;
        }
        // A re-sent QoS 2 PUBLISH stored once already is only acknowledged again below, whatever the limits say.
        boolean resentQos2 = qos == 2 && connection.inbound().awaitingRelease(packetId);
        ClientLimits.Refusal limited = resentQos2 ? null
                : limits.checkPublish(connection, topic, publish.payload().readableBytes());
        if (limited != null) {
            metrics.publishIn(qos);
            refuseOverLimit(ctx, connection, limited, qos, packetId, v5);
            return;
        }
        byte[] payload = ByteBufUtil.getBytes(publish.payload());
        metrics.publishIn(qos);
        if (v5 && isUtf8Declared(properties) && !validUtf8(payload)) {
            // MQTT 5 section 3.3.2.3.2: payload format indicator 1 promises UTF-8.
            if (qos == 0) {
                disconnector.disconnect(ctx.channel(), Disconnect.PAYLOAD_FORMAT_INVALID,
                        "payload_format", "payload is not valid UTF-8");
            } else {
                // Refused, but in arrival order behind publishes still waiting for Kafka.
                connection.inbound().acknowledgeInOrder(packetId, qos, PAYLOAD_FORMAT_INVALID,
                        ProblemInformation.forAck(connection,
                                "payload format indicator is 1 but the payload is not valid UTF-8"));
            }
            return;
        }
        if (qos == 2 && !connection.inbound().openQos2(packetId)) {
            // A re-sent QoS 2 PUBLISH (MQTT 4.3.3): already stored once, so only acknowledge again.
            if (!connection.inbound().storing(packetId)) {
                ctx.writeAndFlush(InboundAcks.reply(MqttMessageType.PUBREC, packetId, (byte) 0, v5));
            }
            return;
        }
        var record = PublishRecords.toRecord(topic, payload, qos, publish.fixedHeader().isRetain(),
                connection.clientId(), connection.version(), nodeId, v5 ? properties : null,
                System.currentTimeMillis());
        if (generateTraceparent && record.headers().lastHeader(RecordHeaders.TRACEPARENT) == null) {
            // Before the mapped copies are made, so they carry the same trace.
            record.headers().add(RecordHeaders.TRACEPARENT, RecordHeaders.utf8(TraceContext.generate()));
        }
        // Mapping rules: the same message also goes to the user's Kafka topics, acknowledged only when all are stored.
        var records = mappings.recordsFor(topic, connection.clientId(), record);
        String unavailable = records.size() == 1 ? null : mappings.unavailableTopic(records);
        if (unavailable != null) {
            refuseUnmappable(ctx, connection, unavailable, qos, packetId, v5);
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
                if (failure != null) {
                    metrics.dropped("kafka_qos0");
                }
            });
            return;
        }
        InboundAcks.Slot slot = connection.inbound().expectAck(packetId, qos);
        if (qos == 2 && exactlyOnce(connection)) {
            String key = Qos2Markers.key(connection.clientId(), connection.inbound().qos2Incarnation(), packetId);
            exactlyOnce.store(records, key, Qos2Markers.digest(topic, payload), publish.fixedHeader().isDup(),
                    (failure, duplicate) -> {
                        release.run();
                        ctx.executor().execute(() -> {
                            if (duplicate) {
                                // Stored by a node that died before its PUBREC: acknowledged, not stored again.
                                metrics.qos2Duplicate();
                            }
                            settle(ctx, connection, slot, packetId, 2, v5, failure);
                        });
                    });
            return;
        }
        producer.sendAll(records, failure -> {
            release.run();
            ctx.executor().execute(() -> settle(ctx, connection, slot, packetId, qos, v5, failure));
        });
    }

    /**
     * A PUBLISH a mapping rule sends to a Kafka topic this node has no metadata for (deleted, or not described yet):
     * not produced at all, since an acknowledgement would promise the mapped copy too. QoS 0 is dropped (counted);
     * QoS 1/2 close the connection unacknowledged, as when Kafka refuses a record, so the client sends it again.
     */
    private void refuseUnmappable(ChannelHandlerContext ctx, ClientConnection connection, String kafkaTopic, int qos,
            int packetId, boolean v5) {
        metrics.dropped("mapping_unavailable");
        if (qos == 2) {
            connection.inbound().releaseQos2(packetId);
        }
        if (qos == 0) {
            return;
        }
        disconnector.disconnect(ctx.channel(), Disconnect.UNSPECIFIED_ERROR,
                null, "a mapping rule writes this publish to Kafka topic '"
                + kafkaTopic + "', which this node has no metadata for now; not acknowledged");
    }

    /**
     * A PUBLISH (retained or not) the connection's ACL does not allow: never produced to Kafka. MQTT 5: PUBACK /
     * PUBREC 0x87 (Not authorized), in arrival order; a PUBREC with a failure code ends the QoS 2 exchange. MQTT 3.x
     * has no negative acknowledgement, so QoS 1/2 are acknowledged as usual and dropped (MQTT 3.1.1 section 3.3.5
     * allows exactly that) and the QoS 2 packet id awaits its PUBREL as usual. QoS 0 is dropped. All counted.
     */
    private void deny(ChannelHandlerContext ctx, ClientConnection connection, String topic, int qos, int packetId,
            boolean v5) {
        AclDenials.publishDenied(metrics, connection, topic);
        if (qos == 0) {
            metrics.dropped("not_authorized");
            return;
        }
        if (qos == 2 && !v5 && !connection.inbound().openQos2(packetId)) {
            if (!connection.inbound().storing(packetId)) {
                ctx.writeAndFlush(InboundAcks.reply(MqttMessageType.PUBREC, packetId, (byte) 0, false));
            }
            return;
        }
        connection.inbound().acknowledgeInOrder(packetId, qos, v5 ? NOT_AUTHORIZED : 0, v5
                ? ProblemInformation.forAck(connection, "not authorized to publish to '" + topic + "'")
                : MqttProperties.NO_PROPERTIES);
    }

    /**
     * A PUBLISH over a limit (topic levels, payload size, publish rate) is never produced; it is counted and logged
     * by {@link ClientLimits}. QoS 0 is dropped. MQTT 5 QoS 1/2: PUBACK / PUBREC with the refusal's reason code
     * (0x90, 0x97), in arrival order; a failed PUBREC ends the QoS 2 exchange. MQTT 3.x has no negative
     * acknowledgement, and a normal one would tell the client that a message we dropped was stored: the connection
     * is closed instead (MQTT 3.1.1 section 3.3.5), so the client sends the message again after reconnecting, which
     * succeeds once its rate is back under the limit.
     */
    private void refuseOverLimit(ChannelHandlerContext ctx, ClientConnection connection, ClientLimits.Refusal refusal,
            int qos, int packetId, boolean v5) {
        if (qos == 0) {
            return;
        }
        if (!v5) {
            disconnector.disconnect(ctx.channel(), refusal.code(), null, refusal.cause());
            return;
        }
        connection.inbound().acknowledgeInOrder(packetId, qos, refusal.code(), ProblemInformation.forAck(connection,
                refusal.cause()));
    }

    /**
     * {@code $SYS} is the broker's own (MQTT 5 section 4.7.2: the server should keep clients from exchanging messages
     * on {@code $} topics). MQTT 5: PUBACK / PUBREC 0x87 Not authorized, in order with other acknowledgements.
     * MQTT 3.x cannot refuse a PUBLISH except by closing the connection (3.1.1 section 3.3.5): it gets the normal
     * acknowledgement and the message is dropped, as Mosquitto does. QoS 0 is dropped. Counted as {@code sys_topic}.
     */
    private void refuseSys(ChannelHandlerContext ctx, ClientConnection connection, String topic, int packetId,
            int qos) {
        metrics.dropped("sys_topic");
        if (qos == 0) {
            return;
        }
        boolean v5 = connection.isMqtt5();
        connection.inbound().acknowledgeInOrder(packetId, qos, v5 ? NOT_AUTHORIZED : 0,
                ProblemInformation.forAck(connection, v5 ? "clients may not publish to " + topic : null));
    }

    private void settle(ChannelHandlerContext ctx, ClientConnection connection, InboundAcks.Slot slot, int packetId, int qos,
            boolean v5, Exception failure) {
        if (failure == null && qos == 2 && persistent(connection)) {
            // Recorded even when the connection is gone meanwhile: the client may re-send it to another node.
            qos2Store.recordInboundQos2(connection.clientId(), packetId).whenComplete((recorded, error) ->
                    ctx.executor().execute(() -> {
                        if (error != null) {
                            // Without the record a re-send after a reconnect would be stored twice: no PUBREC.
                            metrics.sessionQueueFailure();
                            disconnector.disconnect(ctx.channel(), Disconnect.UNSPECIFIED_ERROR, null,
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
            disconnector.disconnect(ctx.channel(), Disconnect.UNSPECIFIED_ERROR, null,
                    "Kafka did not store a QoS " + qos + " publish, not acknowledged: " + failure.getMessage());
        }
    }

    private void onPubRel(ChannelHandlerContext ctx, ClientConnection connection, int packetId) {
        if (connection.inbound().awaitingRelease(packetId) && exactlyOnce(connection)) {
            exactlyOnce.release(Qos2Markers.key(connection.clientId(), connection.inbound().qos2Incarnation(),
                    packetId));
        }
        releaseInRedis(ctx, connection, packetId);
    }

    private void releaseInRedis(ChannelHandlerContext ctx, ClientConnection connection, int packetId) {
        if (connection.inbound().awaitingRelease(packetId) && persistent(connection)) {
            // Forgotten in Redis before PUBCOMP: once the client has PUBCOMP it may reuse the id for a new message.
            qos2Store.releaseInboundQos2(connection.clientId(), packetId).whenComplete((n, error) ->
                    ctx.executor().execute(() -> {
                        if (error != null) {
                            // The client re-sends PUBREL after reconnecting, and gets its PUBCOMP then.
                            metrics.sessionQueueFailure();
                            disconnector.disconnect(ctx.channel(), Disconnect.UNSPECIFIED_ERROR, null,
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
        byte code = known || !connection.isMqtt5() ? 0
                : MqttReasonCodes.PubComp.PACKET_IDENTIFIER_NOT_FOUND.byteValue();
        ctx.writeAndFlush(InboundAcks.reply(MqttMessageType.PUBCOMP, packetId, code,
                ProblemInformation.forAck(connection, known ? null : "no QoS 2 publish with packet id " + packetId),
                connection.isMqtt5()));
    }

    /** Exactly-once into Kafka applies to persistent sessions whose incarnation was read at CONNECT. */
    private boolean exactlyOnce(ClientConnection connection) {
        return exactlyOnce != null && persistent(connection) && connection.inbound().qos2Incarnation() != null;
    }

    /** A session that outlives its connection keeps its QoS 2 packet ids in the store too. */
    private boolean persistent(ClientConnection connection) {
        return qos2Store != null && connection.queueBacked();
    }

    private static boolean isUtf8Declared(MqttProperties properties) {
        MqttProperties.MqttProperty<?> p = properties.getProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR);
        return p != null && Integer.valueOf(1).equals(p.value());
    }

    private static boolean validUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
