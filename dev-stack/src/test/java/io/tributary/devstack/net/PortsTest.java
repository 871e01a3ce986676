package io.tributary.devstack.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void aTakenPortIsReportedWithTheVariableThatMovesIt() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            int port = taken.getLocalPort();
            assertThat(Ports.isFree(port)).isFalse();
            assertThatThrownBy(() -> Ports.requireFree(port, "MQTT", "MQTT_PORT"))
                    .hasMessage("port " + port + " (MQTT) is in use — set MQTT_PORT to another port");
        }
    }

    @Test
    void aFreePortIsFree() {
        assertThat(Ports.isFree(Ports.freePort())).isTrue();
    }
}
