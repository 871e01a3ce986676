package io.tributary.transport.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttEncoder;
import io.netty.handler.codec.mqtt.MqttFixedHeader;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttPublishVariableHeader;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.netty.util.AttributeKey;
import io.tributary.transport.delivery.OutboundDelivery;
import io.tributary.transport.delivery.SlowConsumerPolicy;
import io.tributary.transport.metrics.TransportMetrics;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The size a PUBLISH is checked against a client's Maximum Packet Size with is the number of bytes Netty's encoder
 * really writes: compared with the encoder for every kind of property, and at the boundary (one byte above the
 * client's maximum is dropped, exactly at it is sent).
 */
class PublishWireSizeTest {

    /** The attribute Netty's MQTT codec reads the protocol version of a channel from. */
    private static final AttributeKey<MqttVersion> NETTY_VERSION = AttributeKey.valueOf("NETTY_CODEC_MQTT_VERSION");

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(meters);
    private final OutboundDelivery delivery = new OutboundDelivery(
            metrics,
            new Disconnector(metrics),
            new OutboundDelivery.Limits(100, 100, 1 << 24, SlowConsumerPolicy.DROP));

    @Test
    void computed_size_equals_what_the_encoder_writes_for_every_kind_of_property() {
        int[] payloadSizes = {0, 1, 100, 127 - 9, 128, 16_383 - 20, 16_384, 70_000};
        List<int[]> subscriptionIdSets =
                List.of(new int[0], new int[] {1}, new int[] {127, 128, 16_384, 2_097_152, 268_435_455});
        for (MqttProperties properties : propertySets()) {
            for (int[] ids : subscriptionIdSets) {
                for (int qos = 0; qos <= 2; qos++) {
                    for (int payload : payloadSizes) {
                        for (String topic : new String[] {"t", "ü/žluťoučký/kůň/€", "a".repeat(300)}) {
                            OutboundMessage m =
                                    new OutboundMessage(topic, new byte[payload], qos, false, properties, ids);
                            assertThat(m.encodedSize(true, topic, false))
                                    .as("MQTT 5, topic %s, qos %d, payload %d", topic, qos, payload)
                                    .isEqualTo(encoded(MqttVersion.MQTT_5, m, topic, 0));
                            assertThat(m.encodedSize(true, "", true)).isEqualTo(encoded(MqttVersion.MQTT_5, m, "", 7));
                            assertThat(m.encodedSize(true, topic, true))
                                    .isEqualTo(encoded(MqttVersion.MQTT_5, m, topic, 65535));
                            assertThat(m.encodedSize(false, topic, false))
                                    .isEqualTo(encoded(MqttVersion.MQTT_3_1_1, m, topic, 0));
                            assertThat(m.wireSize()).isEqualTo(m.encodedSize(true, topic, false));
                        }
                    }
                }
            }
        }
    }

    @Test
    void message_exactly_at_the_clients_maximum_is_sent_and_one_byte_above_is_dropped() {
        MqttProperties properties = propertySets().get(3);
        int[] ids = {5, 300};
        long exact = new OutboundMessage("m/size", new byte[1000], 1, false, properties, ids)
                .encodedSize(true, "m/size", false);

        EmbeddedChannel fits = new EmbeddedChannel();
        delivery.deliver(
                connection(fits, exact, 0), new OutboundMessage("m/size", new byte[1000], 1, false, properties, ids));
        MqttPublishMessage sent = fits.readOutbound();
        assertThat(sent).isNotNull();
        assertThat(encodedBytes(MqttVersion.MQTT_5, sent)).isEqualTo(exact);

        EmbeddedChannel tooSmall = new EmbeddedChannel();
        delivery.deliver(
                connection(tooSmall, exact - 1, 0),
                new OutboundMessage("m/size", new byte[1000], 1, false, properties, ids));
        assertThat((Object) tooSmall.readOutbound()).isNull();
        assertThat(dropped()).isEqualTo(1.0);
    }

    @Test
    void a_new_topic_alias_is_left_out_when_its_three_bytes_would_exceed_the_maximum() {
        long withoutAlias =
                new OutboundMessage("m/alias", new byte[500], 0, false, null).encodedSize(true, "m/alias", false);
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = connection(channel, withoutAlias, 5);

        delivery.deliver(c, new OutboundMessage("m/alias", new byte[500], 0, false, null));
        MqttPublishMessage full = channel.readOutbound();
        assertThat(full.variableHeader().topicName()).isEqualTo("m/alias");
        assertThat(full.variableHeader().properties().getProperty(MqttProperties.TOPIC_ALIAS))
                .isNull();
        assertThat(encodedBytes(MqttVersion.MQTT_5, full)).isEqualTo(withoutAlias);

        // A smaller message on the same topic has room for the alias: the alias is assigned now, with the topic.
        delivery.deliver(c, new OutboundMessage("m/alias", new byte[10], 0, false, null));
        MqttPublishMessage small = channel.readOutbound();
        assertThat(small.variableHeader().topicName()).isEqualTo("m/alias");
        assertThat(small.variableHeader()
                        .properties()
                        .getProperty(MqttProperties.TOPIC_ALIAS)
                        .value())
                .isEqualTo(1);
        small.release();

        // Once the client knows the alias, the empty topic makes the large message smaller than without it.
        delivery.deliver(c, new OutboundMessage("m/alias", new byte[500], 0, false, null));
        MqttPublishMessage aliased = channel.readOutbound();
        assertThat(aliased.variableHeader().topicName()).isEmpty();
        assertThat(encodedBytes(MqttVersion.MQTT_5, aliased)).isEqualTo(withoutAlias - "m/alias".length() + 3);
        assertThat(dropped()).isZero();
    }

    @Test
    void queued_message_is_checked_again_when_it_is_sent() {
        // Window of one: the second message waits; it still fits when its turn comes, with its alias.
        OutboundDelivery narrow = new OutboundDelivery(
                metrics,
                new Disconnector(metrics),
                new OutboundDelivery.Limits(1, 10, 1 << 24, SlowConsumerPolicy.DROP));
        long exact = new OutboundMessage("q/t", new byte[200], 1, false, null).encodedSize(true, "", true);
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = connection(channel, exact + 1, 1);
        narrow.deliver(c, new OutboundMessage("q/t", new byte[1], 1, false, null)); // defines alias 1
        narrow.deliver(c, new OutboundMessage("q/t", new byte[200], 1, false, null));
        MqttPublishMessage first = channel.readOutbound();
        assertThat((Object) channel.readOutbound()).isNull();
        narrow.onPubAck(c, first.variableHeader().packetId());
        MqttPublishMessage second = channel.readOutbound();
        assertThat(second).isNotNull();
        assertThat(encodedBytes(MqttVersion.MQTT_5, second)).isEqualTo(exact);
        first.release();
    }

    private double dropped() {
        var counter = meters.find("tributary.deliveries.dropped")
                .tag("reason", "client_packet_size")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private static ClientConnection connection(EmbeddedChannel channel, long maximumPacketSize, int aliasMaximum) {
        return new ClientConnection(
                channel,
                "sub",
                1,
                MqttVersion.MQTT_5,
                true,
                60,
                0,
                new ClientCapabilities(100, maximumPacketSize, aliasMaximum, true),
                10,
                null);
    }

    private static List<MqttProperties> propertySets() {
        List<MqttProperties> sets = new ArrayList<>();
        sets.add(null);
        sets.add(new MqttProperties());
        MqttProperties expiry = new MqttProperties();
        expiry.add(new MqttProperties.IntegerProperty(MqttProperties.PUBLICATION_EXPIRY_INTERVAL, 60));
        expiry.add(new MqttProperties.IntegerProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR, 1));
        sets.add(expiry);
        MqttProperties all = new MqttProperties();
        all.add(new MqttProperties.IntegerProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR, 1));
        all.add(new MqttProperties.IntegerProperty(MqttProperties.PUBLICATION_EXPIRY_INTERVAL, 3600));
        all.add(new MqttProperties.StringProperty(MqttProperties.CONTENT_TYPE, "application/json; charset=ütf-8"));
        all.add(new MqttProperties.StringProperty(MqttProperties.RESPONSE_TOPIC, "reply/ř/1"));
        all.add(new MqttProperties.BinaryProperty(MqttProperties.CORRELATION_DATA, new byte[37]));
        all.add(new MqttProperties.UserProperty("k", "v"));
        all.add(new MqttProperties.UserProperty("ключ", "значение"));
        all.add(new MqttProperties.UserProperty("k", "second value of k"));
        sets.add(all);
        return sets;
    }

    /** Bytes Netty's encoder writes for {@code m} with topic {@code topicOnWire} and topic alias {@code alias}. */
    private static long encoded(MqttVersion version, OutboundMessage m, String topicOnWire, int alias) {
        MqttProperties properties = new MqttProperties();
        if (m.properties() != null) {
            for (MqttProperties.MqttProperty<?> p : m.properties().listAll()) {
                properties.add(p);
            }
        }
        for (int id : m.subscriptionIds()) {
            properties.add(new MqttProperties.IntegerProperty(MqttProperties.SUBSCRIPTION_IDENTIFIER, id));
        }
        if (alias != 0) {
            properties.add(new MqttProperties.IntegerProperty(MqttProperties.TOPIC_ALIAS, alias));
        }
        MqttPublishMessage publish = new MqttPublishMessage(
                new MqttFixedHeader(MqttMessageType.PUBLISH, false, MqttQoS.valueOf(m.qos()), false, 0),
                new MqttPublishVariableHeader(topicOnWire, m.qos() == 0 ? -1 : 1, properties),
                Unpooled.wrappedBuffer(m.payload()));
        return encodedBytes(version, publish);
    }

    private static long encodedBytes(MqttVersion version, MqttPublishMessage publish) {
        EmbeddedChannel encoder = new EmbeddedChannel(MqttEncoder.INSTANCE);
        encoder.attr(NETTY_VERSION).set(version);
        encoder.writeOutbound(publish);
        long bytes = 0;
        for (ByteBuf buf; (buf = encoder.readOutbound()) != null; ) {
            bytes += buf.readableBytes();
            buf.release();
        }
        return bytes;
    }
}
