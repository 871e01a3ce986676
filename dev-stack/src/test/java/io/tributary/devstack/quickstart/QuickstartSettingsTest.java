package io.tributary.devstack.quickstart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void every_http_port_follows_http_port_and_session_service_has_three() {
        QuickstartSettings settings = QuickstartSettings.from(Map.of("HTTP_PORT", "9080"), new String[0]);
        assertThat(settings.httpPort()).isEqualTo(9080);
        assertThat(settings.transportManagementPort()).isEqualTo(9081);
        assertThat(settings.routingManagementPort()).isEqualTo(9082);
        assertThat(settings.webSocketPort()).isEqualTo(9083);
        assertThat(settings.sessionManagementPort()).isEqualTo(9085);
        assertThat(settings.sessionInternalPort()).isEqualTo(9086);
    }

    @Test
    void keeps_the_port_when_nothing_near_it_is_free_so_the_conflict_is_reported() {
        assertThat(DEFAULTS.mqttPortOrNextFree(port -> false)).isEqualTo(1883);
    }

    @Test
    void with_anonymous_access_the_listeners_stay_on_loopback_and_the_banner_says_so() {
        assertThat(DEFAULTS.anonymous()).isTrue();
        assertThat(DEFAULTS.bindAddress()).isEqualTo("127.0.0.1");
        assertThat(DEFAULTS.localAddress()).isEqualTo("127.0.0.1");
        assertThat(QuickstartMain.accessLine(DEFAULTS))
                .contains("anonymous MQTT clients allowed, so the listeners are on 127.0.0.1 only")
                .contains("BIND_ADDRESS=0.0.0.0");
    }

    @Test
    void the_console_origins_are_loopback_on_the_http_port_and_a_single_bind_address() {
        assertThat(DEFAULTS.consoleOrigins())
                .isEqualTo("http://127.0.0.1:8080,http://localhost:8080,http://[::1]:8080");
        assertThat(QuickstartSettings.from(Map.of("HTTP_PORT", "9090", "BIND_ADDRESS", "0.0.0.0"), new String[0])
                        .consoleOrigins())
                .isEqualTo("http://127.0.0.1:9090,http://localhost:9090,http://[::1]:9090");
        assertThat(QuickstartSettings.from(Map.of("BIND_ADDRESS", "10.1.2.3"), new String[0])
                        .consoleOrigins())
                .endsWith(",http://10.1.2.3:8080");
        assertThat(QuickstartSettings.from(Map.of("BIND_ADDRESS", "fd00::7"), new String[0])
                        .consoleOrigins())
                .endsWith(",http://[fd00::7]:8080");
    }

    @Test
    void without_anonymous_access_the_listeners_bind_every_interface() {
        QuickstartSettings settings =
                QuickstartSettings.from(Map.of("TRIBUTARY_AUTH_ANONYMOUS", "false"), new String[0]);
        assertThat(settings.bindAddress()).isEqualTo("0.0.0.0");
        assertThat(settings.localAddress()).isEqualTo("127.0.0.1");
        assertThat(QuickstartMain.accessLine(settings)).contains("need credentials");
    }

    @Test
    void a_chosen_bind_address_is_kept_and_anonymous_network_access_is_a_warning() {
        QuickstartSettings settings = QuickstartSettings.from(Map.of("BIND_ADDRESS", "10.1.2.3"), new String[0]);
        assertThat(settings.bindAddress()).isEqualTo("10.1.2.3");
        assertThat(settings.localAddress()).isEqualTo("10.1.2.3");
        assertThat(QuickstartMain.accessLine(settings))
                .startsWith("WARNING: anonymous MQTT clients allowed from the" + " network on 10.1.2.3");
    }

    @Test
    void postgres_fsync_is_on_unless_turned_off_and_nonsense_is_refused() {
        assertThat(DEFAULTS.postgresFsync()).isTrue();
        assertThat(QuickstartSettings.from(Map.of("POSTGRES_FSYNC", "false"), new String[0])
                        .postgresFsync())
                .isFalse();
        assertThatThrownBy(() -> QuickstartSettings.from(Map.of("POSTGRES_FSYNC", "off"), new String[0]))
                .hasMessage("POSTGRES_FSYNC must be true or false, not 'off'");
        assertThatThrownBy(() -> QuickstartSettings.from(Map.of("TRIBUTARY_AUTH_ANONYMOUS", "yes"), new String[0]))
                .hasMessage("TRIBUTARY_AUTH_ANONYMOUS must be true or false, not 'yes'");
    }
}
