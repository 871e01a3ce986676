package io.tributary.transport.acl;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttMessageIdVariableHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPubReplyMessageVariableHeader;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttSubAckMessage;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.acl.TopicPermissions;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.transport.backpressure.UplinkBudget;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.InboundAcks;
import io.tributary.transport.delivery.OutboundDelivery;
import io.tributary.transport.delivery.SlowConsumerPolicy;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.publish.InboundPublishHandler;
import io.tributary.transport.publish.InboundPublishServices;
import io.tributary.transport.sessionclient.SessionServiceClient;
import io.tributary.transport.subscribe.SubscribeHandler;
import io.tributary.transport.uplink.KafkaAvailability;
import io.tributary.transport.uplink.PublishProducer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * ACL enforcement in the PUBLISH and SUBSCRIBE handlers on an EmbeddedChannel. Kafka and session-service are aimed
 * at a port where nothing listens: a denied packet is answered at once, so an answer proves nothing was sent on.
 */
class AclEnforcementTest {

    private static final TopicPermissions METER =
            TopicPermissions.of(new ConnectApi.Acl(List.of("meters/m-1/#"), List.of("commands/m-1/+")));

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(registry);
    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final LocalSubscriptions subscriptions = new LocalSubscriptions();
    private KafkaProducer<byte[], byte[]> kafka;
    private Admin admin;
    private KafkaAvailability availability;
    private InboundPublishHandler publishHandler;
    private SubscribeHandler subscribeHandler;

    @BeforeEach
    void setUp() {
        kafka = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:1",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                100));
        admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:1"));
        availability = new KafkaAvailability(admin);
        publishHandler = new InboundPublishHandler(InboundPublishServices.of(
                "node-t",
                new PublishProducer(kafka, metrics, availability),
                new Disconnector(metrics),
                metrics,
                100,
                new UplinkBudget(1 << 20, 16 << 20, metrics)));
        subscribeHandler = new SubscribeHandler(
                "node-t",
                new SessionServiceClient(
                        URI.create("http://127.0.0.1:1"),
                        Duration.ofSeconds(2),
                        executor,
                        JsonMapper.builder().build(),
                        "test-token",
                        SessionServiceClient.Batching.DEFAULTS),
                subscriptions,
                new Disconnector(metrics),
                new OutboundDelivery(
                        metrics, null, new OutboundDelivery.Limits(10, 100, 1 << 20, SlowConsumerPolicy.DROP)),
                metrics);
    }

    @AfterEach
    void tearDown() {
        kafka.close(Duration.ZERO);
        availability.close();
        admin.close(Duration.ZERO);
        executor.shutdownNow();
    }

    private EmbeddedChannel channel(MqttVersion version) {
        EmbeddedChannel channel = new EmbeddedChannel(publishHandler, subscribeHandler);
        ClientConnection connection = new ClientConnection(
                channel, "m-1", 1, version, true, 60, 0, new ClientCapabilities(10, 268_435_460L, 0, true), 10, null);
        connection.permissions(METER);
        channel.attr(ClientConnection.KEY).set(connection);
        return channel;
    }

    private static MqttMessage publish(String topic, int qos, int packetId) {
        return MqttMessageBuilders.publish()
                .topicName(topic)
                .qos(MqttQoS.valueOf(qos))
                .messageId(packetId)
                .retained(true)
                .properties(new MqttProperties())
                .payload(Unpooled.wrappedBuffer(new byte[] {1}))
                .build();
    }

    private double denied(String action) {
        var counter =
                registry.find("tributary.acl.denied").tag("action", action).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void mqtt5_denied_publish_gets_puback_and_pubrec_0x87_and_is_never_produced() {
        EmbeddedChannel channel = channel(MqttVersion.MQTT_5);
        channel.writeInbound(publish("meters/m-2/power", 1, 7));
        MqttMessage puback = channel.readOutbound();
        assertThat(puback.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBACK);
        assertThat(((MqttPubReplyMessageVariableHeader) puback.variableHeader()).reasonCode())
                .isEqualTo((byte) 0x87);

        channel.writeInbound(publish("meters/m-2/power", 2, 8));
        MqttMessage pubrec = channel.readOutbound();
        assertThat(pubrec.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBREC);
        assertThat(((MqttPubReplyMessageVariableHeader) pubrec.variableHeader()).reasonCode())
                .isEqualTo((byte) 0x87);
        // A failed PUBREC ends the QoS 2 exchange: the id is not kept waiting for a PUBREL.
        assertThat(ClientConnection.of(channel).inbound().awaitingRelease(8)).isFalse();
        assertThat(denied("publish")).isEqualTo(2);
        assertThat(channel.isActive()).isTrue();
    }

    @Test
    void mqtt311_denied_qos1_and_qos2_are_acknowledged_normally_and_dropped_qos0_is_dropped() {
        EmbeddedChannel channel = channel(MqttVersion.MQTT_3_1_1);
        channel.writeInbound(publish("other/topic", 1, 3));
        MqttMessage puback = channel.readOutbound();
        assertThat(puback.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBACK);
        assertThat(((MqttMessageIdVariableHeader) puback.variableHeader()).messageId())
                .isEqualTo(3);

        channel.writeInbound(publish("other/topic", 2, 4));
        MqttMessage pubrec = channel.readOutbound();
        assertThat(pubrec.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBREC);
        channel.writeInbound(InboundAcks.reply(MqttMessageType.PUBREL, 4, (byte) 0, false));
        MqttMessage pubcomp = channel.readOutbound();
        assertThat(pubcomp.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBCOMP);

        channel.writeInbound(publish("other/topic", 0, 0));
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(denied("publish")).isEqualTo(3);
        assertThat(registry.find("tributary.deliveries.dropped")
                        .tag("reason", "not_authorized")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(channel.isActive()).isTrue();
    }

    @Test
    void denied_subscriptions_get_0x87_in_mqtt5_and_0x80_in_mqtt311_and_are_not_added_locally() {
        EmbeddedChannel v5 = channel(MqttVersion.MQTT_5);
        v5.writeInbound(MqttMessageBuilders.subscribe()
                .messageId(2)
                .addSubscription(MqttQoS.AT_LEAST_ONCE, "commands/#")
                .addSubscription(MqttQoS.AT_LEAST_ONCE, "$share/g/commands/m-2/x")
                .build());
        MqttSubAckMessage ack5 = v5.readOutbound();
        assertThat(ack5.payload().reasonCodes()).containsExactly(0x87, 0x87);

        EmbeddedChannel v3 = channel(MqttVersion.MQTT_3_1_1);
        v3.writeInbound(MqttMessageBuilders.subscribe()
                .messageId(2)
                .addSubscription(MqttQoS.AT_LEAST_ONCE, "commands/m-2/reset")
                .build());
        MqttSubAckMessage ack3 = v3.readOutbound();
        assertThat(ack3.payload().reasonCodes()).containsExactly(0x80);
        assertThat(subscriptions.size()).isZero();
        assertThat(denied("subscribe")).isEqualTo(3);
    }

    @Test
    void the_reserved_tenant_namespace_is_refused_like_a_denied_topic_whatever_the_acl() {
        // Unrestricted (anonymous with access on), global namespace: still no way into $tenant/...
        EmbeddedChannel v5 = channel(MqttVersion.MQTT_5);
        ClientConnection.of(v5).permissions(TopicPermissions.UNRESTRICTED);
        v5.writeInbound(publish("$tenant/acme/meters/1", 1, 5));
        MqttMessage puback = v5.readOutbound();
        assertThat(puback.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBACK);
        assertThat(((MqttPubReplyMessageVariableHeader) puback.variableHeader()).reasonCode())
                .isEqualTo((byte) 0x87);
        v5.writeInbound(MqttMessageBuilders.subscribe()
                .messageId(3)
                .addSubscription(MqttQoS.AT_LEAST_ONCE, "$tenant/acme/#")
                .addSubscription(MqttQoS.AT_LEAST_ONCE, "$tenant/#")
                .addSubscription(MqttQoS.AT_LEAST_ONCE, "$tenant")
                .addSubscription(MqttQoS.AT_LEAST_ONCE, "$share/g/$tenant/acme/meters/+")
                .build());
        MqttSubAckMessage ack5 = v5.readOutbound();
        assertThat(ack5.payload().reasonCodes()).containsExactly(0x87, 0x87, 0x87, 0x87);

        // A tenant's client cannot climb out of its namespace into another's either; MQTT 3.1.1 gets 0x80.
        EmbeddedChannel v3 = channel(MqttVersion.MQTT_3_1_1);
        ClientConnection tenantClient = ClientConnection.of(v3);
        tenantClient.permissions(TopicPermissions.UNRESTRICTED);
        tenantClient.namespace(TenantNamespace.of("blue"));
        v3.writeInbound(MqttMessageBuilders.subscribe()
                .messageId(4)
                .addSubscription(MqttQoS.AT_LEAST_ONCE, "$tenant/acme/#")
                .build());
        MqttSubAckMessage ack3 = v3.readOutbound();
        assertThat(ack3.payload().reasonCodes()).containsExactly(0x80);
        assertThat(subscriptions.size()).isZero();
        assertThat(denied("publish")).isEqualTo(1);
        assertThat(denied("subscribe")).isEqualTo(5);
        assertThat(v5.isActive()).isTrue();
    }

    @Test
    void allowed_publish_goes_on_to_kafka() {
        // Kafka is unreachable here (the producer gives up after 100 ms): an allowed QoS 1 publish reaches the
        // producer, fails there and is answered DISCONNECT 0x80, never PUBACK 0x87.
        EmbeddedChannel channel = channel(MqttVersion.MQTT_5);
        channel.writeInbound(publish("meters/m-1/power", 1, 9));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        MqttMessage out = null;
        while (out == null && System.nanoTime() < deadline) {
            channel.runPendingTasks();
            out = channel.readOutbound();
        }
        assertThat(out).isNotNull();
        assertThat(out.fixedHeader().messageType()).isEqualTo(MqttMessageType.DISCONNECT);
        assertThat(((io.netty.handler.codec.mqtt.MqttReasonCodeAndPropertiesVariableHeader) out.variableHeader())
                        .reasonCode())
                .isEqualTo((byte) 0x80);
        assertThat(denied("publish")).isZero();
    }
}
