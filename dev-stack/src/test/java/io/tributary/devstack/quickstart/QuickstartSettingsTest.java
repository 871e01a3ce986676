package io.tributary.devstack.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class QuickstartSettingsTest {

    private static final QuickstartSettings DEFAULTS = QuickstartSettings.from(Map.of(), new String[0]);

    @Test
    void keeps_the_mqtt_port_when_it_is_free() {
        assertThat(DEFAULTS.mqttPortOrNextFree(port -> true)).isEqualTo(1883);
    }

    @Test
    void moves_to_the_next_free_port_when_the_default_is_taken() {
        Set<Integer> taken = Set.of(1883, 1884);
        assertThat(DEFAULTS.mqttPortOrNextFree(port -> !taken.contains(port))).isEqualTo(1885);
        assertThat(DEFAULTS.withMqttPort(1885).mqttPort()).isEqualTo(1885);
        assertThat(DEFAULTS.withMqttPort(1885).httpPort()).isEqualTo(DEFAULTS.httpPort());
    }

    @Test
    void keeps_the_port_when_nothing_near_it_is_free_so_the_conflict_is_reported() {
        assertThat(DEFAULTS.mqttPortOrNextFree(port -> false)).isEqualTo(1883);
    }
}
