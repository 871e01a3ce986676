package io.tributary.transport.publish;

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
import io.netty.handler.codec.mqtt.MqttReasonCodeAndPropertiesVariableHeader;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.transport.backpressure.UplinkBudget;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.uplink.KafkaAvailability;
import io.tributary.transport.uplink.PublishProducer;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The refusal paths of inbound PUBLISH, on an EmbeddedChannel. None of them may reach Kafka, so the producer is a
 * real one pointed at a port where nothing listens. Accepted publishes are covered by the integration tests.
 */
class InboundPublishHandlerTest {

    private static final int TOPIC_ALIAS_MAXIMUM = 10;

    private KafkaProducer<byte[], byte[]> kafka;
    private Admin admin;
    private KafkaAvailability availability;
    private InboundPublishHandler handler;

    @BeforeEach
    void setUp() {
        kafka = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:1",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class));
        admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:1"));
        availability = new KafkaAvailability(admin);
        TransportMetrics metrics = new TransportMetrics(new SimpleMeterRegistry());
        handler = new InboundPublishHandler(InboundPublishServices.of(
                "node-t",
                new PublishProducer(kafka, metrics, availability),
                new Disconnector(metrics),
                metrics,
                100,
                new UplinkBudget(1 << 20, 16 << 20, metrics)));
    }

    @AfterEach
    void tearDown() {
        kafka.close(Duration.ZERO);
        availability.close();
        admin.close(Duration.ZERO);
    }

    private EmbeddedChannel channel(boolean problemInformation) {
        EmbeddedChannel channel = new EmbeddedChannel(handler);
        channel.attr(ClientConnection.KEY)
                .set(new ClientConnection(
                        channel,
                        "c",
                        1,
                        MqttVersion.MQTT_5,
                        true,
                        60,
                        0,
                        new ClientCapabilities(10, 268_435_460L, 0, problemInformation),
                        TOPIC_ALIAS_MAXIMUM,
                        null));
        return channel;
    }

    private static MqttPublishMessage publish(String topic, int qos, MqttProperties properties, byte[] payload) {
        return MqttMessageBuilders.publish()
                .topicName(topic)
                .qos(MqttQoS.valueOf(qos))
                .messageId(qos == 0 ? 0 : 5)
                .properties(properties)
                .payload(Unpooled.wrappedBuffer(payload))
                .build();
    }

    private static MqttProperties alias(int alias) {
        MqttProperties p = new MqttProperties();
        p.add(new MqttProperties.IntegerProperty(MqttProperties.TOPIC_ALIAS, alias));
        return p;
    }

    private static byte disconnectReason(EmbeddedChannel channel) {
        MqttMessage m = channel.readOutbound();
        assertThat(m).as("DISCONNECT sent").isNotNull();
        assertThat(m.fixedHeader().messageType()).isEqualTo(MqttMessageType.DISCONNECT);
        assertThat(channel.isActive()).as("connection closed").isFalse();
        return ((MqttReasonCodeAndPropertiesVariableHeader) m.variableHeader()).reasonCode();
    }

    @Test
    void topic_alias_zero_or_above_our_maximum_is_topic_alias_invalid() {
        EmbeddedChannel zero = channel(true);
        zero.writeInbound(publish("a", 0, alias(0), new byte[0]));
        assertThat(disconnectReason(zero)).isEqualTo((byte) 0x94);

        EmbeddedChannel above = channel(true);
        above.writeInbound(publish("a", 0, alias(TOPIC_ALIAS_MAXIMUM + 1), new byte[0]));
        assertThat(disconnectReason(above)).isEqualTo((byte) 0x94);
    }

    @Test
    void empty_topic_needs_a_known_alias() {
        EmbeddedChannel unknown = channel(true);
        unknown.writeInbound(publish("", 0, alias(3), new byte[0]));
        assertThat(disconnectReason(unknown)).isEqualTo((byte) 0x82);

        EmbeddedChannel none = channel(true);
        none.writeInbound(publish("", 0, new MqttProperties(), new byte[0]));
        assertThat(disconnectReason(none)).isEqualTo((byte) 0x82);
    }

    @Test
    void alias_is_not_defined_by_a_publish_whose_topic_is_invalid() {
        EmbeddedChannel channel = channel(true);
        ClientConnection connection = ClientConnection.of(channel);
        channel.writeInbound(publish("a/#", 0, alias(2), new byte[0]));
        assertThat(disconnectReason(channel)).isEqualTo((byte) 0x90);
        assertThat(connection.inbound().resolveTopic("", 2).failed()).isTrue();
    }

    @Test
    void subscription_identifier_from_a_client_is_a_protocol_error() {
        EmbeddedChannel channel = channel(true);
        MqttProperties p = new MqttProperties();
        p.add(new MqttProperties.IntegerProperty(MqttProperties.SUBSCRIPTION_IDENTIFIER, 4));
        channel.writeInbound(publish("a", 0, p, new byte[0]));
        assertThat(disconnectReason(channel)).isEqualTo((byte) 0x82);
    }

    @Test
    void payload_not_utf8_despite_the_indicator_gets_puback_0x99_with_reason_only_if_problems_are_wanted() {
        byte[] invalid = {(byte) 0xC3, 0x28};
        MqttProperties utf8 = new MqttProperties();
        utf8.add(new MqttProperties.IntegerProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR, 1));

        EmbeddedChannel wanting = channel(true);
        wanting.writeInbound(publish("a", 1, utf8, invalid));
        MqttMessage ack = wanting.readOutbound();
        assertThat(ack.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBACK);
        MqttPubReplyMessageVariableHeader v = (MqttPubReplyMessageVariableHeader) ack.variableHeader();
        assertThat(v.reasonCode()).isEqualTo((byte) 0x99);
        assertThat(v.properties().getProperty(MqttProperties.REASON_STRING)).isNotNull();
        assertThat(wanting.isActive()).isTrue();

        EmbeddedChannel quiet = channel(false);
        quiet.writeInbound(publish("a", 2, utf8, invalid));
        ack = quiet.readOutbound();
        assertThat(ack.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBREC);
        v = (MqttPubReplyMessageVariableHeader) ack.variableHeader();
        assertThat(v.reasonCode()).isEqualTo((byte) 0x99);
        assertThat(v.properties().isEmpty())
                .as("Request Problem Information = 0")
                .isTrue();
    }

    @Test
    void publish_to_sys_is_refused_0x87_for_mqtt5_and_acknowledged_but_dropped_for_mqtt311() {
        // Answered at once: a publish handed to Kafka would wait for the broker that is not there.
        EmbeddedChannel v5 = channel(true);
        v5.writeInbound(publish("$SYS/broker/clients/connected", 1, new MqttProperties(), new byte[] {'9'}));
        MqttMessage ack = v5.readOutbound();
        assertThat(ack.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBACK);
        assertThat(((MqttPubReplyMessageVariableHeader) ack.variableHeader()).reasonCode())
                .isEqualTo((byte) 0x87);
        assertThat(v5.isActive()).isTrue();

        EmbeddedChannel v311 = new EmbeddedChannel(handler);
        v311.attr(ClientConnection.KEY)
                .set(new ClientConnection(
                        v311,
                        "c3",
                        1,
                        MqttVersion.MQTT_3_1_1,
                        true,
                        60,
                        0,
                        ClientCapabilities.DEFAULTS,
                        TOPIC_ALIAS_MAXIMUM,
                        null));
        v311.writeInbound(MqttMessageBuilders.publish()
                .topicName("$SYS/x")
                .qos(MqttQoS.EXACTLY_ONCE)
                .messageId(3)
                .payload(Unpooled.wrappedBuffer(new byte[] {1}))
                .build());
        MqttMessage pubrec = v311.readOutbound();
        assertThat(pubrec.fixedHeader().messageType()).isEqualTo(MqttMessageType.PUBREC);
        assertThat(v311.isActive()).isTrue();

        EmbeddedChannel qos0 = channel(true);
        qos0.writeInbound(publish("$SYS", 0, new MqttProperties(), new byte[] {1}));
        assertThat((Object) qos0.readOutbound()).isNull();
        assertThat(qos0.isActive()).isTrue();
    }
}
