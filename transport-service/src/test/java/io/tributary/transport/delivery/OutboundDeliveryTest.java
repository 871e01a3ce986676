package io.tributary.transport.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPubReplyMessageVariableHeader;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.metrics.TransportMetrics;
import org.junit.jupiter.api.Test;

class OutboundDeliveryTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final TransportMetrics metrics = new TransportMetrics(meters);
    private final OutboundDelivery delivery = new OutboundDelivery(
            metrics, new Disconnector(metrics), new OutboundDelivery.Limits(2, 1, 1 << 20, SlowConsumerPolicy.DROP));

    private ClientConnection connection(EmbeddedChannel channel, int receiveMaximum) {
        return new ClientConnection(
                channel,
                "sub",
                1,
                MqttVersion.MQTT_5,
                true,
                60,
                0,
                new ClientCapabilities(receiveMaximum, 268_435_460L, 0, true),
                10,
                null);
    }

    private static OutboundMessage message(int qos) {
        return new OutboundMessage("t", new byte[] {1}, qos, false, new MqttProperties());
    }

    @Test
    void qos1_window_then_queue_then_drop_and_ack_drains_queue() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = connection(channel, 65535);
        delivery.deliver(c, message(1));
        delivery.deliver(c, message(1));
        delivery.deliver(c, message(1)); // queued: window is 2
        delivery.deliver(c, message(1)); // dropped: queue holds 1
        MqttPublishMessage first = channel.readOutbound();
        MqttPublishMessage second = channel.readOutbound();
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(first.variableHeader().packetId())
                .isNotEqualTo(second.variableHeader().packetId());
        assertThat(meters.get("tributary.deliveries.dropped")
                        .tag("reason", "queue_full")
                        .counter()
                        .count())
                .isEqualTo(1.0);

        delivery.onPubAck(c, first.variableHeader().packetId());
        MqttPublishMessage third = channel.readOutbound();
        assertThat(third).isNotNull();
        assertThat(third.variableHeader().packetId())
                .isNotEqualTo(second.variableHeader().packetId());
        first.release();
        second.release();
        third.release();
    }

    @Test
    void client_receive_maximum_limits_the_window() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = connection(channel, 1);
        delivery.deliver(c, message(2));
        delivery.deliver(c, message(2));
        MqttPublishMessage only = channel.readOutbound();
        assertThat((Object) channel.readOutbound()).isNull();
        delivery.onPubRec(c, only.variableHeader().packetId(), 0);
        Object pubrel = channel.readOutbound();
        assertThat(pubrel.toString()).contains("PUBREL");
        assertThat((Object) channel.readOutbound()).isNull(); // still in flight until PUBCOMP
        delivery.onPubComp(c, only.variableHeader().packetId());
        MqttPublishMessage next = channel.readOutbound();
        assertThat(next).isNotNull();
        only.release();
        next.release();
    }

    @Test
    void oversized_message_is_dropped_for_that_client() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = new ClientConnection(
                channel, "sub", 1, MqttVersion.MQTT_5, true, 60, 0, new ClientCapabilities(10, 20, 0, true), 10, null);
        delivery.deliver(c, new OutboundMessage("t", new byte[100], 0, false, null));
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(meters.get("tributary.deliveries.dropped")
                        .tag("reason", "client_packet_size")
                        .counter()
                        .count())
                .isEqualTo(1.0);
    }

    @Test
    void topic_aliases_up_to_the_clients_maximum_topic_sent_once_per_alias() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = new ClientConnection(
                channel,
                "sub",
                1,
                MqttVersion.MQTT_5,
                true,
                60,
                0,
                new ClientCapabilities(100, 268_435_460L, 1, true),
                10,
                null);
        for (String topic : new String[] {"a/1", "a/1", "a/2", "a/1"}) {
            delivery.deliver(c, new OutboundMessage(topic, new byte[] {1}, 0, false, new MqttProperties()));
        }
        String[] wireTopics = new String[4];
        Object[] aliases = new Object[4];
        for (int i = 0; i < 4; i++) {
            MqttPublishMessage m = channel.readOutbound();
            wireTopics[i] = m.variableHeader().topicName();
            MqttProperties.MqttProperty<?> alias =
                    m.variableHeader().properties().getProperty(MqttProperties.TOPIC_ALIAS);
            aliases[i] = alias == null ? null : alias.value();
            m.release();
        }
        assertThat(wireTopics).containsExactly("a/1", "", "a/2", "");
        assertThat(aliases).containsExactly(1, 1, null, 1);
    }

    @Test
    void a_tenants_topic_goes_out_without_its_namespace_prefix_and_aliases_stand_for_the_short_name() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = new ClientConnection(
                channel,
                "sub",
                1,
                MqttVersion.MQTT_5,
                true,
                60,
                0,
                new ClientCapabilities(100, 268_435_460L, 1, true),
                10,
                null);
        OutboundMessage internal =
                new OutboundMessage("$tenant/acme/meters/1", new byte[] {1}, 0, false, new MqttProperties());
        assertThat(internal.topic())
                .as("matched and routed by the internal name")
                .isEqualTo("$tenant/acme/meters/1");
        delivery.deliver(c, internal);
        delivery.deliver(
                c, new OutboundMessage("$tenant/acme/meters/1", new byte[] {2}, 0, false, new MqttProperties()));
        MqttPublishMessage first = channel.readOutbound();
        MqttPublishMessage second = channel.readOutbound();
        assertThat(first.variableHeader().topicName()).isEqualTo("meters/1");
        assertThat(second.variableHeader().topicName())
                .as("the alias of meters/1")
                .isEmpty();
        first.release();
        second.release();
        // The wire size is that of the name written.
        assertThat(internal.wireSize())
                .isEqualTo(new OutboundMessage("meters/1", new byte[] {1}, 0, false, new MqttProperties()).wireSize());
    }

    @Test
    void no_topic_alias_for_a_client_that_accepts_none() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = connection(channel, 100);
        delivery.deliver(c, message(0));
        delivery.deliver(c, message(0));
        for (int i = 0; i < 2; i++) {
            MqttPublishMessage m = channel.readOutbound();
            assertThat(m.variableHeader().topicName()).isEqualTo("t");
            assertThat(m.variableHeader().properties().getProperty(MqttProperties.TOPIC_ALIAS))
                    .isNull();
            m.release();
        }
    }

    @Test
    void subscription_identifiers_are_added_per_subscriber_without_touching_the_shared_properties() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = connection(channel, 100);
        MqttProperties shared = new MqttProperties();
        shared.add(new MqttProperties.UserProperty("k", "v"));
        delivery.deliver(c, new OutboundMessage("t", new byte[] {1}, 1, false, shared, new int[] {7, 9}));
        MqttPublishMessage m = channel.readOutbound();
        assertThat(m.variableHeader().properties().getProperties(MqttProperties.SUBSCRIPTION_IDENTIFIER))
                .extracting(p -> p.value())
                .containsExactly(7, 9);
        assertThat(m.variableHeader().properties().getProperties(MqttProperties.USER_PROPERTY))
                .hasSize(1);
        assertThat(shared.getProperties(MqttProperties.SUBSCRIPTION_IDENTIFIER)).isEmpty();
        m.release();
    }

    @Test
    void mqtt311_subscriber_gets_no_properties() {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection c = new ClientConnection(
                channel, "sub", 1, MqttVersion.MQTT_3_1_1, true, 60, 0, ClientCapabilities.DEFAULTS, 10, null);
        MqttProperties shared = new MqttProperties();
        shared.add(new MqttProperties.UserProperty("k", "v"));
        delivery.deliver(c, new OutboundMessage("t", new byte[] {1}, 0, false, shared, new int[] {7}));
        MqttPublishMessage m = channel.readOutbound();
        assertThat(m.variableHeader().properties().isEmpty()).isTrue();
        m.release();
    }

    @Test
    void pubrec_for_an_unknown_packet_id_answers_pubrel_0x92_with_a_reason_unless_problems_are_unwanted() {
        EmbeddedChannel wanting = new EmbeddedChannel();
        delivery.onPubRec(connection(wanting, 10), 42, 0);
        MqttMessage withReason = wanting.readOutbound();
        MqttPubReplyMessageVariableHeader v = (MqttPubReplyMessageVariableHeader) withReason.variableHeader();
        assertThat(v.reasonCode()).isEqualTo((byte) 0x92);
        assertThat(v.properties().getProperty(MqttProperties.REASON_STRING)).isNotNull();

        EmbeddedChannel quiet = new EmbeddedChannel();
        delivery.onPubRec(
                new ClientConnection(
                        quiet,
                        "sub",
                        1,
                        MqttVersion.MQTT_5,
                        true,
                        60,
                        0,
                        new ClientCapabilities(10, 268_435_460L, 0, false),
                        10,
                        null),
                42,
                0);
        MqttMessage withoutReason = quiet.readOutbound();
        v = (MqttPubReplyMessageVariableHeader) withoutReason.variableHeader();
        assertThat(v.reasonCode()).isEqualTo((byte) 0x92);
        assertThat(v.properties().isEmpty()).isTrue();
    }
}
