package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SessionApi;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * A session gets at most the maximum session expiry ({@code SESSION_EXPIRY_MAX}, 7 days by default) whatever its
 * client asks for, at CONNECT (MQTT 5 Session Expiry Interval, MQTT 3.1.1 clean session 0 sent as "never") and at
 * DISCONNECT, and the CONNECT's answer says what it got (issue 34: sessions could be parked forever).
 */
@Order(3)
class SessionExpiryLimitIntegrationTest extends ServiceTestBase {

    private static final long MAX = Duration.ofDays(7).toSeconds();

    private long stored(String clientId) {
        return jdbc.sql("SELECT session_expiry_seconds FROM sessions WHERE client_id = :c")
                .param("c", clientId)
                .query(Long.class)
                .single();
    }

    private Instant expiresAt(String clientId) {
        return toInstant(jdbc.sql("SELECT expires_at FROM sessions WHERE client_id = :c")
                .param("c", clientId)
                .query()
                .singleRow()
                .get("expires_at"));
    }

    @Test
    void never_and_more_than_the_maximum_become_the_maximum_at_connect_and_at_disconnect() throws Exception {
        Response never =
                post(SessionApi.CONNECT, connectRequest("exp-max-1", "node-exp", false, NEVER, null, null, null));
        assertThat(never.status()).as("%s", never.body()).isEqualTo(200);
        assertThat(stored("exp-max-1")).isEqualTo(MAX);
        assertThat(never.body().path("sessionExpirySeconds").asLong()).isEqualTo(MAX);

        Instant before = Instant.now();
        Response out = post(
                SessionApi.DISCONNECT,
                new DisconnectApi.DisconnectRequest(
                        "exp-max-1", never.body().path("epoch").asLong(), "node-exp", NEVER));
        assertThat(out.status()).as("%s", out.body()).isLessThan(300);
        assertThat(stored("exp-max-1")).isEqualTo(MAX);
        assertThat(expiresAt("exp-max-1")).isCloseTo(before.plusSeconds(MAX), within(60, ChronoUnit.SECONDS));
    }

    @Test
    void an_expiry_below_the_maximum_is_kept_and_a_disconnect_cannot_raise_it_beyond() throws Exception {
        Response hour = post(SessionApi.CONNECT, connectRequest("exp-max-2", "node-exp", true, 3600, null, null, null));
        assertThat(hour.status()).as("%s", hour.body()).isEqualTo(200);
        assertThat(hour.body().path("sessionExpirySeconds").asLong()).isEqualTo(3600);
        assertThat(stored("exp-max-2")).isEqualTo(3600);

        // MQTT 5 3.14.2.2.2: a DISCONNECT may change it, here to more than the maximum.
        Instant before = Instant.now();
        post(
                SessionApi.DISCONNECT,
                new DisconnectApi.DisconnectRequest(
                        "exp-max-2", hour.body().path("epoch").asLong(), "node-exp", MAX + 1));
        assertThat(stored("exp-max-2")).isEqualTo(MAX);
        assertThat(expiresAt("exp-max-2")).isCloseTo(before.plusSeconds(MAX), within(60, ChronoUnit.SECONDS));
    }
}
