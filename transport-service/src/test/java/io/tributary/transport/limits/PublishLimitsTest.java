package io.tributary.transport.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPubReplyMessageVariableHeader;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.session.LimitsApi;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.transport.backpressure.UplinkBudget;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.limits.tenant.TenantPublishQuotas;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.publish.InboundPublishHandler;
import io.tributary.transport.publish.InboundPublishServices;
import io.tributary.transport.uplink.KafkaAvailability;
import io.tributary.transport.uplink.PublishProducer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PUBLISH refusals by limits on an EmbeddedChannel. A refused PUBLISH must never reach Kafka, so the producer is a
 * real one pointed at a port where nothing listens.
 */
class PublishLimitsTest {

    private final AtomicLong now = new AtomicLong();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final LimitRefusals refusals = new LimitRefusals(registry, now::get);
    private KafkaProducer<byte[], byte[]> kafka;
    private Admin admin;
    private KafkaAvailability availability;

    @BeforeEach
    void setUp() {
        // The one PUBLISH under the rate fails at once (no metadata within 10 ms) instead of waiting a minute.
        kafka = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:1",
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                10,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class));
        admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:1"));
        availability = new KafkaAvailability(admin);
    }

    @AfterEach
    void tearDown() {
        kafka.close(Duration.ZERO);
        availability.close();
        admin.close(Duration.ZERO);
    }

    private EmbeddedChannel channel(MqttVersion version, int maxPayload, int maxLevels) {
        LimitsProperties limits = new LimitsProperties(
                0, 0, 1, 0, 1, 1, 0, 1, maxPayload, 0, maxLevels, 0, 0, Duration.ofSeconds(5), Duration.ofSeconds(5));
        return channel(version, limits);
    }

    private EmbeddedChannel channel(MqttVersion version, LimitsProperties limits) {
        return channel(version, limits, TenantPublishQuotas.NONE, null);
    }

    private EmbeddedChannel channel(
            MqttVersion version, LimitsProperties limits, TenantPublishQuotas tenantQuotas, String tenant) {
        TransportMetrics metrics = new TransportMetrics(registry);
        InboundPublishHandler handler = new InboundPublishHandler(InboundPublishServices.of(
                        "node-t",
                        new PublishProducer(kafka, metrics, availability),
                        new Disconnector(metrics),
                        metrics,
                        100,
                        new UplinkBudget(1 << 20, 16 << 20, metrics))
                .withLimits(new ClientLimits(limits, refusals, now::get, tenantQuotas)));
        EmbeddedChannel channel = new EmbeddedChannel(handler);
        ClientConnection connection;
        channel.attr(ClientConnection.KEY)
                .set(
                        connection = new ClientConnection(
                                channel,
                                "c",
                                1,
                                version,
                                true,
                                60,
                                0,
                                new ClientCapabilities(10, 268_435_460L, 0, true),
                                10,
                                null));
        connection.namespace(TenantNamespace.of(tenant));
        return channel;
    }

    private static MqttPublishMessage publish(String topic, int qos, int packetId, int payloadBytes) {
        return MqttMessageBuilders.publish()
                .topicName(topic)
                .qos(MqttQoS.valueOf(qos))
                .messageId(packetId)
                .properties(MqttProperties.NO_PROPERTIES)
                .payload(Unpooled.wrappedBuffer(new byte[payloadBytes]))
                .build();
    }

    private static MqttPublishMessage retained(String topic, int qos, int packetId, int payloadBytes) {
        return MqttMessageBuilders.publish()
                .topicName(topic)
                .qos(MqttQoS.valueOf(qos))
                .retained(true)
                .messageId(packetId)
                .properties(MqttProperties.NO_PROPERTIES)
                .payload(Unpooled.wrappedBuffer(new byte[payloadBytes]))
                .build();
    }

    private static int ackCode(EmbeddedChannel channel, MqttMessageType type) {
        MqttMessage ack = channel.readOutbound();
        assertThat(ack).isNotNull();
        assertThat(ack.fixedHeader().messageType()).isEqualTo(type);
        return ((MqttPubReplyMessageVariableHeader) ack.variableHeader()).reasonCode() & 0xFF;
    }

    @Test
    void too_many_topic_levels_is_puback_0x90_and_too_large_a_payload_pubrec_0x97() {
        EmbeddedChannel channel = channel(MqttVersion.MQTT_5, 100, 3);
        channel.writeInbound(publish("a/b/c/d", 1, 7, 1));
        assertThat(ackCode(channel, MqttMessageType.PUBACK)).isEqualTo(0x90);
        channel.writeInbound(publish("a/b", 2, 8, 101));
        assertThat(ackCode(channel, MqttMessageType.PUBREC)).isEqualTo(0x97);
        assertThat(channel.isActive()).isTrue();
        assertThat(refusals.count(LimitRefusals.TOPIC_LEVELS)).isEqualTo(1);
        assertThat(refusals.count(LimitRefusals.PAYLOAD_SIZE)).isEqualTo(1);
    }

    @Test
    void over_the_publish_rate_mqtt5_gets_0x97_and_qos0_is_dropped_and_counted() {
        LimitsProperties limits = new LimitsProperties(
                0, 0, 1, 0, 1, 1, 10, 1, 0, 0, 0, 0, 0, Duration.ofSeconds(5), Duration.ofSeconds(5));
        EmbeddedChannel channel = channel(MqttVersion.MQTT_5, limits);
        // The one token of the burst goes to a PUBLISH that is then held for Kafka (nowhere): no answer yet.
        channel.writeInbound(publish("a", 0, 0, 1));
        channel.writeInbound(publish("a", 0, 0, 1));
        assertThat((Object) channel.readOutbound()).as("QoS 0 has no answer").isNull();
        assertThat(refusals.count(LimitRefusals.PUBLISH_RATE)).isEqualTo(1);
        now.addAndGet(50_000_000L);
        channel.writeInbound(publish("a", 1, 9, 1));
        assertThat(ackCode(channel, MqttMessageType.PUBACK))
                .as("no token within 100 ms")
                .isEqualTo(0x97);
        assertThat(refusals.count(LimitRefusals.PUBLISH_RATE)).isEqualTo(2);
        assertThat(channel.isActive()).isTrue();
    }

    @Test
    void mqtt311_qos1_over_a_limit_closes_the_connection_and_qos0_is_dropped() {
        EmbeddedChannel channel = channel(MqttVersion.MQTT_3_1_1, 10, 0);
        channel.writeInbound(publish("a", 0, 0, 11));
        assertThat(channel.isActive()).isTrue();
        channel.writeInbound(publish("a", 1, 3, 11));
        assertThat((Object) channel.readOutbound())
                .as("no acknowledgement for a message not stored")
                .isNull();
        assertThat(channel.isActive()).isFalse();
        assertThat(refusals.count(LimitRefusals.PAYLOAD_SIZE)).isEqualTo(2);
    }

    /** A tenant whose publish quota is used up (a quota of 0 needs no counter). */
    private EmbeddedChannel tenantOverQuota(MqttVersion version) {
        TenantPublishQuotas quotas = new TenantPublishQuotas(
                (tenant, quota) -> (limit, want, owed) -> {
                    throw new AssertionError("a quota of 0 asks no counter");
                },
                registry,
                now::get);
        quotas.update(List.of(new LimitsApi.TenantPublishQuota("acme", 0, null)));
        return channel(version, LimitsProperties.none(), quotas, "acme");
    }

    private double tenantRefusals() {
        var counter = registry.find("tributary.tenant.quota.refusals")
                .tag("tenant", "acme")
                .tag("quota", "publish_rate")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void over_the_tenant_quota_mqtt5_qos1_and_2_get_0x97_and_qos0_is_dropped_and_counted() {
        // MQTT 5 section 3.4.2.1 / 3.5.2.1: 0x97 Quota exceeded, the connection stays.
        EmbeddedChannel channel = tenantOverQuota(MqttVersion.MQTT_5);
        channel.writeInbound(publish("a", 0, 0, 1));
        assertThat((Object) channel.readOutbound()).as("QoS 0 has no answer").isNull();
        channel.writeInbound(publish("a", 1, 5, 1));
        assertThat(ackCode(channel, MqttMessageType.PUBACK)).isEqualTo(0x97);
        channel.writeInbound(publish("a", 2, 6, 1));
        assertThat(ackCode(channel, MqttMessageType.PUBREC)).isEqualTo(0x97);
        assertThat(channel.isActive()).isTrue();
        assertThat(tenantRefusals()).isEqualTo(3);
    }

    @Test
    void over_the_tenant_quota_mqtt311_qos1_closes_the_connection_unacknowledged() {
        EmbeddedChannel channel = tenantOverQuota(MqttVersion.MQTT_3_1_1);
        channel.writeInbound(publish("a", 0, 0, 1));
        assertThat(channel.isActive()).as("QoS 0 dropped").isTrue();
        channel.writeInbound(publish("a", 1, 3, 1));
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(channel.isActive()).isFalse();
        assertThat(tenantRefusals()).isEqualTo(2);
    }

    /** A tenant that holds its retained-message quota, as session-service's list says; no publish rate. */
    private EmbeddedChannel tenantRetainedFull(MqttVersion version) {
        TenantPublishQuotas quotas = new TenantPublishQuotas(
                (tenant, quota) -> (limit, want, owed) -> {
                    throw new AssertionError("no rate quota, no counter");
                },
                registry,
                now::get);
        quotas.update(List.of(new LimitsApi.TenantPublishQuota("acme", null, null, true)));
        return channel(version, LimitsProperties.none(), quotas, "acme");
    }

    private double retainedRefusals() {
        var counter = registry.find("tributary.tenant.quota.refusals")
                .tag("tenant", "acme")
                .tag("quota", TenantPublishQuotas.RETAINED)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void a_tenant_holding_its_retained_quota_gets_0x97_for_retained_publishes_and_deletions_pass() {
        EmbeddedChannel channel = tenantRetainedFull(MqttVersion.MQTT_5);
        channel.writeInbound(retained("r", 0, 0, 1));
        assertThat((Object) channel.readOutbound())
                .as("QoS 0 dropped, no answer")
                .isNull();
        channel.writeInbound(retained("r", 1, 5, 1));
        assertThat(ackCode(channel, MqttMessageType.PUBACK)).isEqualTo(0x97);
        channel.writeInbound(retained("r", 2, 6, 1));
        assertThat(ackCode(channel, MqttMessageType.PUBREC)).isEqualTo(0x97);
        assertThat(channel.isActive()).isTrue();
        assertThat(retainedRefusals()).isEqualTo(3);

        // A deletion (empty retained payload) goes on to Kafka (here unreachable, which the handler deals with as
        // such): no 0x97, nothing counted.
        channel.writeInbound(retained("r", 1, 7, 0));
        for (Object out; (out = channel.readOutbound()) != null; ) {
            if (out instanceof MqttMessage ack && ack.variableHeader() instanceof MqttPubReplyMessageVariableHeader v) {
                assertThat(v.reasonCode() & 0xFF).isNotEqualTo(0x97);
            }
        }
        assertThat(retainedRefusals()).isEqualTo(3);
    }

    @Test
    void a_tenant_holding_its_retained_quota_closes_an_mqtt311_qos1_retained_publish_unacknowledged() {
        EmbeddedChannel channel = tenantRetainedFull(MqttVersion.MQTT_3_1_1);
        channel.writeInbound(retained("r", 0, 0, 1));
        assertThat(channel.isActive()).as("QoS 0 dropped").isTrue();
        channel.writeInbound(retained("r", 1, 3, 1));
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(channel.isActive()).isFalse();
        assertThat(retainedRefusals()).isEqualTo(2);
    }
}
