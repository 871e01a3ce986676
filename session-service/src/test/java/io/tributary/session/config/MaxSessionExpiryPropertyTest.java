package io.tributary.session.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** {@code SESSION_EXPIRY_MAX}: bound as a duration, refused at start-up outside 1 s .. 4294967295 s. */
class MaxSessionExpiryPropertyTest {

    private static SessionServiceProperties.Expiry bind(String max) {
        return new Binder(new MapConfigurationPropertySource(Map.of(
                        "expiry.sweep-interval", "1s",
                        "expiry.batch-size", "100",
                        "expiry.max-batches-per-run", "20",
                        "expiry.max-session-expiry", max)))
                .bind("expiry", SessionServiceProperties.Expiry.class)
                .get();
    }

    @Test
    void durations_bind_and_lower_what_clients_ask_for() {
        SessionServiceProperties.Expiry week = bind("7d");
        assertThat(week.maxSessionExpiry()).isEqualTo(Duration.ofDays(7));
        assertThat(week.grantedSeconds(0xFFFFFFFFL)).isEqualTo(604_800);
        assertThat(week.grantedSeconds(3600)).isEqualTo(3600);
        assertThat(week.grantedSeconds(0)).isZero();
        // Raised as far as MQTT goes: "never" stays never.
        assertThat(bind("4294967295s").grantedSeconds(0xFFFFFFFFL)).isEqualTo(0xFFFFFFFFL);
    }

    @Test
    void a_maximum_outside_what_mqtt_can_say_stops_the_start() {
        for (String bad : new String[] {"0s", "-1s", "500ms", "4294967296s"}) {
            assertThatThrownBy(() -> bind(bad))
                    .as(bad)
                    .isInstanceOf(BindException.class)
                    .rootCause()
                    .hasMessageContaining("SESSION_EXPIRY_MAX");
        }
    }
}
