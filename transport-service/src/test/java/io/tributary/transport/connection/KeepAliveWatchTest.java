package io.tributary.transport.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttReasonCodeAndPropertiesVariableHeader;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.transport.metrics.TransportMetrics;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** MQTT 3.1.1 / 5.0 section 3.1.2.10: a client silent for 1.5 x its keep alive is disconnected, no earlier. */
class KeepAliveWatchTest {

    private static final long SECOND = 1_000_000_000L;

    private final ConnectionRegistry registry = new ConnectionRegistry();
    private final KeepAliveWatch watch = new KeepAliveWatch(
            registry, new Disconnector(new TransportMetrics(new SimpleMeterRegistry())), Duration.ofMillis(500));

    private EmbeddedChannel connected(String clientId, int keepAlive, MqttVersion version) {
        EmbeddedChannel channel = new EmbeddedChannel(new ByteCountingHandler(
                new SimpleMeterRegistry().counter("in"), new SimpleMeterRegistry().counter("out")));
        ClientConnection connection = new ClientConnection(
                channel,
                clientId,
                1,
                version,
                true,
                keepAlive,
                0,
                new ClientCapabilities(10, 268_435_460L, 0, true),
                10,
                null);
        channel.attr(ClientConnection.KEY).set(connection);
        registry.register(connection);
        return channel;
    }

    @Test
    void test_a_client_silent_for_more_than_one_and_a_half_keep_alives_gets_0x8D_and_is_closed() {
        EmbeddedChannel channel = connected("silent", 2, MqttVersion.MQTT_5);
        ClientConnection.of(channel).bytesRead(System.nanoTime() - 3 * SECOND - 1);
        watch.sweep();
        channel.runPendingTasks();
        MqttMessage disconnect = channel.readOutbound();
        assertThat(disconnect.fixedHeader().messageType()).isEqualTo(MqttMessageType.DISCONNECT);
        assertThat(((MqttReasonCodeAndPropertiesVariableHeader) disconnect.variableHeader()).reasonCode())
                .isEqualTo((byte) 0x8D);
        assertThat(channel.isActive()).isFalse();
    }

    @Test
    void test_a_client_within_one_and_a_half_keep_alives_or_with_keep_alive_0_stays() {
        EmbeddedChannel recent = connected("recent", 2, MqttVersion.MQTT_3_1_1);
        ClientConnection.of(recent).bytesRead(System.nanoTime() - 2 * SECOND);
        EmbeddedChannel none = connected("no-keep-alive", 0, MqttVersion.MQTT_3_1_1);
        ClientConnection.of(none).bytesRead(System.nanoTime() - 3600 * SECOND);
        watch.sweep();
        recent.runPendingTasks();
        none.runPendingTasks();
        assertThat(recent.isActive()).isTrue();
        assertThat(none.isActive()).isTrue();
    }

    @Test
    void test_bytes_read_even_part_of_a_packet_restart_the_period() {
        EmbeddedChannel channel = connected("talker", 1, MqttVersion.MQTT_3_1_1);
        ClientConnection.of(channel).bytesRead(System.nanoTime() - 10 * SECOND);
        // Half of a PINGREQ: activity all the same.
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0xC0}));
        watch.sweep();
        channel.runPendingTasks();
        assertThat(channel.isActive()).isTrue();
    }

    @Test
    void test_a_packet_that_arrives_between_the_sweep_and_the_event_loop_keeps_the_client() {
        EmbeddedChannel channel = connected("late", 1, MqttVersion.MQTT_3_1_1);
        ClientConnection.of(channel).bytesRead(System.nanoTime() - 2 * SECOND);
        watch.sweep();
        ClientConnection.of(channel).bytesRead(System.nanoTime());
        channel.runPendingTasks();
        assertThat(channel.isActive()).isTrue();
    }
}
