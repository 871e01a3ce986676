package io.tributary.transport.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttConnectMessage;
import io.netty.handler.codec.mqtt.MqttDecoder;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttReasonCodeAndPropertiesVariableHeader;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.transport.metrics.TransportMetrics;
import org.junit.jupiter.api.Test;

/**
 * Both found by the fuzz test: a PUBLISH carrying the Payload Format Indicator twice was accepted, because Netty's
 * decoder keeps one copy of a repeated property; and a packet whose property length (or topic length) runs past its
 * remaining length made the decoder swallow the following packets, leaving the connection hanging. The check in front
 * of the decoder makes the first a Protocol Error and the second a Malformed Packet.
 */
class PacketFrameCheckTest {

    /** CONNECT, MQTT 5, client id "c", no properties. */
    private static final byte[] CONNECT_5 = {0x10, 14, 0, 4, 'M', 'Q', 'T', 'T', 5, 2, 0, 30, 0, 0, 1, 'c'};

    private static final byte[] CONNECT_311 = {0x10, 13, 0, 4, 'M', 'Q', 'T', 'T', 4, 2, 0, 30, 0, 1, 'c'};

    private final TransportMetrics metrics = new TransportMetrics(new SimpleMeterRegistry());

    private EmbeddedChannel channel(byte[] connect) {
        PacketFrameCheck.DecodedCounter decoded = new PacketFrameCheck.DecodedCounter();
        EmbeddedChannel channel = new EmbeddedChannel(
                new PacketFrameCheck(1 << 20, decoded),
                new MqttDecoder(),
                decoded,
                new MalformedPacketHandler(new Disconnector(metrics), 1 << 20));
        channel.writeInbound(Unpooled.wrappedBuffer(connect));
        assertThat(channel.<Object>readInbound()).isInstanceOf(MqttConnectMessage.class);
        channel.attr(ClientConnection.KEY)
                .set(new ClientConnection(
                        channel,
                        "c",
                        1,
                        connect[8] == 5 ? MqttVersion.MQTT_5 : MqttVersion.MQTT_3_1_1,
                        true,
                        30,
                        0,
                        ClientCapabilities.DEFAULTS,
                        10,
                        null));
        return channel;
    }

    /** PUBLISH QoS 0 to "a" with the given property bytes and payload "x". */
    private static byte[] publish(byte... properties) {
        byte[] p = new byte[2 + 3 + 1 + properties.length + 1];
        p[0] = 0x30;
        p[1] = (byte) (p.length - 2);
        p[2] = 0;
        p[3] = 1;
        p[4] = 'a';
        p[5] = (byte) properties.length;
        System.arraycopy(properties, 0, p, 6, properties.length);
        p[p.length - 1] = 'x';
        return p;
    }

    @Test
    void a_property_repeated_in_a_publish_is_a_protocol_error() {
        EmbeddedChannel channel = channel(CONNECT_5);
        channel.writeInbound(Unpooled.wrappedBuffer(publish((byte) 0x01, (byte) 0, (byte) 0x01, (byte) 0)));
        MqttMessage disconnect = channel.readOutbound();
        assertThat(disconnect.fixedHeader().messageType()).isEqualTo(MqttMessageType.DISCONNECT);
        assertThat(((MqttReasonCodeAndPropertiesVariableHeader) disconnect.variableHeader()).reasonCode())
                .isEqualTo((byte) 0x82);
        assertThat(channel.isActive()).isFalse();
    }

    @Test
    void user_properties_may_repeat_and_packets_split_anywhere_still_decode() {
        EmbeddedChannel channel = channel(CONNECT_5);
        byte[] twoUserProperties = publish(
                (byte) 0x26,
                (byte) 0,
                (byte) 1,
                (byte) 'k',
                (byte) 0,
                (byte) 1,
                (byte) 'v',
                (byte) 0x26,
                (byte) 0,
                (byte) 1,
                (byte) 'k',
                (byte) 0,
                (byte) 1,
                (byte) 'w');
        byte[] twice = new byte[twoUserProperties.length * 2];
        System.arraycopy(twoUserProperties, 0, twice, 0, twoUserProperties.length);
        System.arraycopy(twoUserProperties, 0, twice, twoUserProperties.length, twoUserProperties.length);
        for (byte b : twice) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        for (int i = 0; i < 2; i++) {
            MqttPublishMessage publish = channel.readInbound();
            assertThat(publish.variableHeader().properties().getProperties(0x26))
                    .hasSize(2);
            publish.release();
        }
        assertThat(channel.isActive()).isTrue();
    }

    private static byte disconnectReason(EmbeddedChannel channel) {
        MqttMessage disconnect = channel.readOutbound();
        assertThat(disconnect).as("DISCONNECT sent").isNotNull();
        assertThat(disconnect.fixedHeader().messageType()).isEqualTo(MqttMessageType.DISCONNECT);
        assertThat(channel.isActive()).isFalse();
        return ((MqttReasonCodeAndPropertiesVariableHeader) disconnect.variableHeader()).reasonCode();
    }

    @Test
    void a_property_length_past_the_end_of_the_packet_is_malformed_instead_of_swallowing_what_follows() {
        EmbeddedChannel channel = channel(CONNECT_5);
        // UNSUBSCRIBE, packet id 1, property length 0x7B (123) in a packet of 9 bytes; then PINGREQ.
        byte[] unsubscribe = {(byte) 0xA2, 9, 0, 1, 0x7B, 0, 3, 'a', '/', 'b', 0};
        channel.writeInbound(Unpooled.wrappedBuffer(unsubscribe), Unpooled.wrappedBuffer(new byte[] {(byte) 0xC0, 0}));
        assertThat(disconnectReason(channel)).isEqualTo((byte) 0x81);
    }

    @Test
    void a_topic_length_past_the_end_of_a_lone_packet_is_malformed_too() {
        EmbeddedChannel channel = channel(CONNECT_311);
        channel.attr(ClientConnection.KEY)
                .set(new ClientConnection(
                        channel, "c", 1, MqttVersion.MQTT_5, true, 30, 0, ClientCapabilities.DEFAULTS, 10, null));
        // PUBLISH QoS 0 whose topic claims 200 bytes in a packet of 4, and nothing after it.
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0x30, 4, 0, (byte) 200, 'a', 'b'}));
        assertThat(disconnectReason(channel)).isEqualTo((byte) 0x81);
    }
}
