package io.tributary.transport.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.codec.ByteArrayCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttConnAckMessage;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.kafka.TopicLayout;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.redis.RedisClientFactory;
import io.tributary.redis.RedisSettings;
import io.tributary.sessionqueue.RedisQueueReader;
import io.tributary.transport.config.TransportProperties;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.delivery.OutboundDelivery;
import io.tributary.transport.delivery.SlowConsumerPolicy;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.liveness.NodeRegistration;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.sessionclient.SessionServiceClient;
import io.tributary.transport.sessionqueue.SessionQueueReader;
import io.tributary.transport.uplink.KafkaAvailability;
import io.tributary.transport.uplink.PublishProducer;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.json.JsonMapper;

/**
 * CONNECT refusals, driven on an EmbeddedChannel. Session-service is a real HTTP endpoint that does not exist
 * (port 1 refuses connections), the Kafka producer a real one that is never used by these paths.
 */
class ConnectHandlerTest {

    private ExecutorService executor;
    private KafkaProducer<byte[], byte[]> kafka;
    private ConnectContext context;
    private SimpleMeterRegistry meters;
    private org.apache.kafka.clients.admin.Admin admin;
    private KafkaAvailability availability;
    /** Registered unless a test says otherwise, so the other refusals are reached. */
    private final Registration registration = new Registration();

    private static final class Registration implements NodeRegistration {
        volatile boolean registered = true;

        @Override
        public String incarnation() {
            return "incarnation-1";
        }

        @Override
        public boolean registered() {
            return registered;
        }
    }

    private ManagedRedisConnection<byte[], byte[]> redis;

    @BeforeEach
    void setUp() {
        executor = Executors.newSingleThreadExecutor();
        kafka = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:1",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class));
        meters = new SimpleMeterRegistry();
        admin = org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", "127.0.0.1:1"));
        availability = new KafkaAvailability(admin);
        TransportMetrics metrics = new TransportMetrics(meters);
        TransportProperties properties = new TransportProperties(
                "node-t",
                new TransportProperties.Mqtt(
                        "127.0.0.1",
                        0,
                        true,
                        1024,
                        Duration.ofSeconds(10),
                        60,
                        10,
                        10,
                        10,
                        10,
                        1,
                        DataSize.ofMegabytes(1),
                        DataSize.ofMegabytes(64),
                        SlowConsumerPolicy.DROP),
                new TransportProperties.Kafka(
                        "127.0.0.1:1",
                        TopicLayout.singleBroker(1, 1, 1, Duration.ofHours(1)),
                        Duration.ofMillis(100),
                        Duration.ofSeconds(1),
                        0,
                        DataSize.ofMegabytes(1),
                        DataSize.ofMegabytes(16),
                        org.apache.kafka.common.record.CompressionType.LZ4),
                TransportProperties.Session.of(
                        URI.create("http://127.0.0.1:1"), Duration.ofSeconds(2), Duration.ofSeconds(2), "test-token"),
                new TransportProperties.Redis("redis://127.0.0.1:1", Duration.ofSeconds(1)),
                TransportProperties.Tls.off(),
                TransportProperties.WebSocket.off());
        SessionServiceClient sessions = new SessionServiceClient(
                properties.session().url(),
                Duration.ofSeconds(2),
                executor,
                JsonMapper.builder().build(),
                "test-token",
                SessionServiceClient.Batching.DEFAULTS);
        redis = RedisClientFactory.open(
                RedisSettings.of(properties.redis().url(), properties.redis().commandTimeout(), "test"),
                ByteArrayCodec.INSTANCE,
                new SimpleMeterRegistry());
        RedisQueueReader queueStore = new RedisQueueReader(redis);
        LocalSubscriptions subscriptions = new LocalSubscriptions();
        ConnectionRegistry registry = new ConnectionRegistry();
        SessionQueueReader queueReader = new SessionQueueReader(
                queueStore,
                subscriptions,
                new OutboundDelivery(
                        metrics,
                        new Disconnector(metrics),
                        new OutboundDelivery.Limits(10, 10, 1 << 20, SlowConsumerPolicy.DROP),
                        queueStore),
                metrics,
                registry,
                io.tributary.kafka.tracing.HopTracing.OFF);
        context = new ConnectContext(
                properties,
                sessions,
                registry,
                subscriptions,
                new PublishProducer(kafka, metrics, availability),
                new Disconnector(metrics),
                metrics,
                registration,
                queueReader);
    }

    @AfterEach
    void tearDown() {
        kafka.close(Duration.ZERO);
        availability.close();
        admin.close(Duration.ZERO);
        executor.shutdownNow();
        redis.close();
    }

    private static MqttConnAckMessage awaitConnAck(EmbeddedChannel channel) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            channel.runPendingTasks();
            Object out = channel.readOutbound();
            if (out != null) {
                return (MqttConnAckMessage) out;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no CONNACK");
    }

    @Test
    void first_packet_other_than_connect_closes_the_connection() {
        EmbeddedChannel channel = new EmbeddedChannel(new ConnectHandler(context));
        channel.writeInbound(MqttMessage.PINGREQ);
        assertThat(channel.isActive()).isFalse();
        assertThat(meters.get("tributary.protocol.errors")
                        .tag("cause", "first_packet_not_connect")
                        .counter()
                        .count())
                .isEqualTo(1.0);
    }

    @Test
    void empty_client_id_without_clean_session_is_rejected_in_mqtt311() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(new ConnectHandler(context));
        channel.writeInbound(MqttMessageBuilders.connect()
                .protocolVersion(MqttVersion.MQTT_3_1_1)
                .clientId("")
                .cleanSession(false)
                .build());
        assertThat(awaitConnAck(channel).variableHeader().connectReturnCode())
                .isEqualTo(MqttConnectReturnCode.CONNECTION_REFUSED_IDENTIFIER_REJECTED);
        assertThat(channel.isActive()).isFalse();
    }

    @Test
    void unsupported_authentication_method_is_refused_in_mqtt5() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(new ConnectHandler(context));
        MqttProperties props = new MqttProperties();
        props.add(new MqttProperties.StringProperty(MqttProperties.AUTHENTICATION_METHOD, "SCRAM-SHA-1"));
        channel.writeInbound(MqttMessageBuilders.connect()
                .protocolVersion(MqttVersion.MQTT_5)
                .clientId("c5")
                .properties(props)
                .build());
        assertThat(awaitConnAck(channel).variableHeader().connectReturnCode())
                .isEqualTo(MqttConnectReturnCode.CONNECTION_REFUSED_BAD_AUTHENTICATION_METHOD);
    }

    @Test
    void node_not_registered_with_session_service_refuses_connect_as_server_unavailable() throws Exception {
        registration.registered = false;
        EmbeddedChannel channel = new EmbeddedChannel(new ConnectHandler(context));
        channel.writeInbound(MqttMessageBuilders.connect()
                .protocolVersion(MqttVersion.MQTT_5)
                .clientId("c2")
                .cleanSession(true)
                .build());
        assertThat(awaitConnAck(channel).variableHeader().connectReturnCode())
                .isEqualTo(MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_UNAVAILABLE_5);
        assertThat(meters.get("tributary.connects")
                        .tag("result", "refused")
                        .tag("reason", "node_not_registered")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        assertThat(context.registry().size()).isZero();
    }

    @Test
    void unreachable_session_service_refuses_as_server_unavailable_and_never_accepts() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(new ConnectHandler(context));
        channel.writeInbound(MqttMessageBuilders.connect()
                .protocolVersion(MqttVersion.MQTT_3_1_1)
                .clientId("c1")
                .cleanSession(true)
                .build());
        assertThat(awaitConnAck(channel).variableHeader().connectReturnCode())
                .isEqualTo(MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_UNAVAILABLE);
        channel.runPendingTasks();
        assertThat(channel.isActive()).isFalse();
        assertThat(context.registry().size()).isZero();
    }

    @Test
    void receive_maximum_zero_is_a_protocol_error_with_a_reason_string() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(new ConnectHandler(context));
        MqttProperties props = new MqttProperties();
        props.add(new MqttProperties.IntegerProperty(MqttProperties.RECEIVE_MAXIMUM, 0));
        channel.writeInbound(MqttMessageBuilders.connect()
                .protocolVersion(MqttVersion.MQTT_5)
                .clientId("c0")
                .properties(props)
                .build());
        assertProtocolError(channel, "CONNECT with Receive Maximum 0");
    }

    /** MQTT 5 section 3.1.3.2 / 3.3.2.3.5 [MQTT-3.3.2-14]: a will's Response Topic is a topic name too. */
    @Test
    void a_will_whose_response_topic_has_a_wildcard_is_a_protocol_error() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(new ConnectHandler(context));
        MqttProperties will = new MqttProperties();
        will.add(new MqttProperties.StringProperty(MqttProperties.RESPONSE_TOPIC, "replies/#"));
        channel.writeInbound(MqttMessageBuilders.connect()
                .protocolVersion(MqttVersion.MQTT_5)
                .clientId("c-will")
                .willFlag(true)
                .willTopic("status/c-will")
                .willMessage("gone".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .willProperties(will)
                .build());
        assertProtocolError(
                channel,
                "CONNECT with a will with a Response Topic that is not a valid topic name (wildcard '#' in a topic"
                        + " name)");
    }

    /** CONNACK 0x82 Protocol Error with {@code reason} as its Reason String. */
    private static void assertProtocolError(EmbeddedChannel channel, String reason) throws InterruptedException {
        MqttConnAckMessage ack = awaitConnAck(channel);
        assertThat(ack.variableHeader().connectReturnCode())
                .isEqualTo(MqttConnectReturnCode.CONNECTION_REFUSED_PROTOCOL_ERROR);
        assertThat(ack.variableHeader()
                        .properties()
                        .getProperty(MqttProperties.REASON_STRING)
                        .value())
                .isEqualTo(reason);
    }
}
