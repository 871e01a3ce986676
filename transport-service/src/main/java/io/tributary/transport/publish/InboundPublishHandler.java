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
import io.netty.util.ReferenceCountUtil;
import io.tributary.sessionqueue.InboundQos2Store;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.InboundFlow;
import io.tributary.transport.connection.MessagePropertyCheck;
import io.tributary.transport.limits.ClientLimits;
import io.tributary.transport.mapping.MappingRules;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.qos2.ExactlyOnceQos2;

/**
 * Inbound PUBLISH and PUBREL: each PUBLISH becomes one Kafka record, plus one per matching MQTT-to-Kafka mapping
 * rule ({@link MappingRules}); PUBACK / PUBREC go out only after Kafka has acknowledged all of them, in arrival
 * order. A record Kafka refused is never acknowledged: the connection is
 * closed so the client re-sends it (MQTT 4.4). MQTT 5 topic aliases are resolved here, so the record always
 * carries the full topic name. The connection's ACL is checked here, locally, before anything reaches Kafka.
 * What becomes of a PUBLISH is decided by {@link InboundPublishRules} (pure, typed {@link PublishVerdict}s); this
 * handler reads the facts and hands the verdict on: a refusal to {@link PublishRefusals}, an accepted PUBLISH to
 * {@link PublishToKafka}, whose acknowledgements and the QoS 2 release are {@link InboundQos2Exchange}'s.
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

    private final TransportMetrics metrics;
    private final int receiveMaximum;
    private final ClientLimits limits;

    private final PublishRefusals refusals;
    private final InboundQos2Exchange qos2;
    private final PublishToKafka kafka;

    public InboundPublishHandler(InboundPublishServices services) {
        this.metrics = services.metrics();
        this.receiveMaximum = services.receiveMaximum();
        this.limits = services.limits();
        this.refusals = new PublishRefusals(services);
        this.qos2 = new InboundQos2Exchange(services);
        this.kafka = new PublishToKafka(services, qos2, refusals);
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
            qos2.onPubRel(
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
        PublishFacts facts = facts(connection, publish, qos, packetId, properties);

        InboundPublishRules.Admission admission = InboundPublishRules.admit(facts);
        if (admission.aliasToDefine() != 0) {
            connection.inbound().defineAlias(admission.aliasToDefine(), facts.topicName());
        }
        if (!(admission.verdict() instanceof PublishVerdict.Accept admitted)) {
            refusals.carryOut(ctx, connection, admission.verdict(), qos, packetId);
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
            refusals.carryOut(ctx, connection, verdict, qos, packetId);
            return;
        }
        // From here on the internal name: a tenant's client's topic is mounted under $tenant/<id>/ (Kafka key,
        // routing, retained store, mapping rules, QoS 2 markers), and the record says which tenant in a header.
        kafka.store(ctx, connection, publish, connection.namespace().topic(clientTopic), payload);
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
                v5 ? MessagePropertyCheck.problem(properties) : null,
                v5 && isUtf8Declared(properties),
                v5 ? flow.resolveTopic(topicName, alias) : null,
                flow.exceedsReceiveMaximum(qos, packetId, receiveMaximum),
                receiveMaximum,
                connection.permissions(),
                qos == 2 && flow.awaitingRelease(packetId));
    }

    private static boolean isUtf8Declared(MqttProperties properties) {
        MqttProperties.MqttProperty<?> p = properties.getProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR);
        return p != null && Integer.valueOf(1).equals(p.value());
    }
}
