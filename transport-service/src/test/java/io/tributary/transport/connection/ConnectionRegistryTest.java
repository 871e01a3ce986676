package io.tributary.transport.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttVersion;
import org.junit.jupiter.api.Test;

class ConnectionRegistryTest {

    private static ClientConnection connection(String id, long epoch) {
        return new ClientConnection(
                new EmbeddedChannel(),
                id,
                epoch,
                MqttVersion.MQTT_3_1_1,
                true,
                60,
                0,
                new ClientCapabilities(10, 1000, 0, true),
                10,
                null);
    }

    @Test
    void newer_epoch_displaces_older_and_older_never_displaces_newer() {
        ConnectionRegistry registry = new ConnectionRegistry();
        ClientConnection e1 = connection("c", 1);
        ClientConnection e2 = connection("c", 2);
        assertThat(registry.register(e1)).isNull();
        assertThat(registry.register(e2)).isSameAs(e1);
        assertThat(registry.get("c")).isSameAs(e2);

        ClientConnection late = connection("c", 1);
        assertThat(registry.register(late)).isSameAs(late);
        assertThat(registry.get("c")).isSameAs(e2);

        registry.unregister(e1); // stale removal is a no-op
        assertThat(registry.get("c")).isSameAs(e2);
        registry.unregister(e2);
        assertThat(registry.size()).isZero();
    }
}
