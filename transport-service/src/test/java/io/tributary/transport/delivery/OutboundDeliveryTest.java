package io.tributary.transport.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.metrics.TransportMetrics;

class OutboundDeliveryTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final OutboundDelivery delivery = new OutboundDelivery(new TransportMetrics(meters), 2, 1);

    private ClientConnection connection(EmbeddedChannel channel, int receiveMaximum) {
        return new ClientConnection(channel, "sub", 1, MqttVersion.MQTT_5, true, 60, 0, receiveMaximum,
                268_435_460L, null);
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
        assertThat(first.variableHeader().packetId()).isNotEqualTo(second.variableHeader().packetId());
        assertThat(meters.get("tributary.deliveries.dropped").tag("reason", "queue_full").counter().count())
                .isEqualTo(1.0);

        delivery.onPubAck(c, first.variableHeader().packetId());
        MqttPublishMessage third = channel.readOutbound();
        assertThat(third).isNotNull();
        assertThat(third.variableHeader().packetId()).isNotEqualTo(second.variableHeader().packetId());
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
        ClientConnection c = new ClientConnection(channel, "sub", 1, MqttVersion.MQTT_5, true, 60, 0, 10, 20, null);
        delivery.deliver(c, new OutboundMessage("t", new byte[100], 0, false, null));
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(meters.get("tributary.deliveries.dropped").tag("reason", "client_packet_size").counter().count())
                .isEqualTo(1.0);
    }
}
