package io.tributary.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;

class ReceiveMaximumTest {

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final ClientConnection connection = new ClientConnection(channel, "c", 1, MqttVersion.MQTT_5, true, 60, 0,
            ClientCapabilities.DEFAULTS, 10, null);

    @Test
    void test_qos2_exchanges_count_until_pubrel_although_pubrec_was_sent() {
        connection.inboundQos2().add(1);
        connection.inboundQos2().add(2);

        assertThat(ReceiveMaximum.open(connection)).isEqualTo(2);
        assertThat(ReceiveMaximum.exceededBy(connection, 2, 3, 2)).isTrue();
        assertThat(ReceiveMaximum.exceededBy(connection, 2, 3, 3)).isFalse();
    }

    @Test
    void test_qos1_counts_until_its_puback_is_written() {
        Object slot = connection.inboundAcks().expect(1, 1);
        assertThat(ReceiveMaximum.exceededBy(connection, 1, 2, 1)).isTrue();

        connection.inboundAcks().complete(slot, (byte) 0, channel, true);

        assertThat(ReceiveMaximum.open(connection)).isZero();
        assertThat(ReceiveMaximum.exceededBy(connection, 1, 2, 1)).isFalse();
    }

    @Test
    void test_qos2_waiting_for_kafka_is_counted_once() {
        connection.inboundQos2().add(7);
        connection.inboundAcks().expect(7, 2);

        assertThat(ReceiveMaximum.open(connection)).isEqualTo(1);
    }

    @Test
    void test_a_resent_qos2_publish_and_qos0_open_nothing() {
        connection.inboundQos2().add(7);

        assertThat(ReceiveMaximum.exceededBy(connection, 2, 7, 1)).isFalse();
        assertThat(ReceiveMaximum.exceededBy(connection, 0, 0, 1)).isFalse();
        assertThat(ReceiveMaximum.exceededBy(connection, 2, 8, 1)).isTrue();
    }
}
