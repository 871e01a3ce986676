package io.tributary.transport.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageType;
import io.netty.handler.codec.mqtt.MqttReasonCodeAndPropertiesVariableHeader;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.metrics.TransportMetrics;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The close at the end of a token's validity, driven on an EmbeddedChannel with its clock advanced by hand. */
class AuthenticationExpiryHandlerTest {

    private final Disconnector disconnector = new Disconnector(new TransportMetrics(new SimpleMeterRegistry()));

    private static EmbeddedChannel accepted(MqttVersion version) {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.freezeTime();
        channel.attr(ClientConnection.KEY)
                .set(new ClientConnection(
                        channel, "jwt-client", 1, version, true, 60, 0, ClientCapabilities.DEFAULTS, 10, null));
        return channel;
    }

    @Test
    void mqtt5_client_gets_disconnect_0xA0_when_its_authentication_expires_not_before() {
        EmbeddedChannel channel = accepted(MqttVersion.MQTT_5);
        channel.pipeline().addLast(new AuthenticationExpiryHandler(System.currentTimeMillis() + 5_000, disconnector));

        channel.advanceTimeBy(4, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isActive()).isTrue();
        assertThat((Object) channel.readOutbound()).isNull();

        channel.advanceTimeBy(2, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        MqttMessage disconnect = channel.readOutbound();
        assertThat(disconnect.fixedHeader().messageType()).isEqualTo(MqttMessageType.DISCONNECT);
        assertThat(((MqttReasonCodeAndPropertiesVariableHeader) disconnect.variableHeader()).reasonCode())
                .isEqualTo((byte) 0xA0);
        assertThat(channel.isActive()).isFalse();
    }

    @Test
    void mqtt311_client_is_closed_without_a_packet_and_an_expired_one_at_once() {
        EmbeddedChannel channel = accepted(MqttVersion.MQTT_3_1_1);
        channel.pipeline().addLast(new AuthenticationExpiryHandler(System.currentTimeMillis() - 1, disconnector));

        channel.runScheduledPendingTasks();
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(channel.isActive()).isFalse();
    }

    @Test
    void a_connection_that_ends_first_leaves_no_timer_behind() {
        EmbeddedChannel channel = accepted(MqttVersion.MQTT_5);
        channel.pipeline()
                .addLast(new AuthenticationExpiryHandler(System.currentTimeMillis() + 3_600_000, disconnector));
        channel.close();
        channel.advanceTimeBy(2, TimeUnit.HOURS);
        // A cancelled timer is gone from the loop's schedule: nothing is due, ever.
        assertThat(channel.runScheduledPendingTasks()).isEqualTo(-1);
    }
}
