package io.tributary.session.expiry;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.session.store.SessionRecord;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ExpiryPolicyTest {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    void expiryIsCountedFromTheDisconnect() {
        assertThat(ExpiryPolicy.expiresAt(NOW, 90)).isEqualTo(NOW.plusSeconds(90));
        assertThat(ExpiryPolicy.expiresAt(NOW, 0xFFFFFFFEL)).isEqualTo(NOW.plusSeconds(0xFFFFFFFEL));
    }

    @Test
    void maximumIntervalMeansNever() {
        assertThat(ExpiryPolicy.expiresAt(NOW, 0xFFFFFFFFL)).isNull();
    }

    @Test
    void onlyOfflineSessionsPastTheirExpiryAreExpired() {
        assertThat(ExpiryPolicy.expired(row(false, NOW.minusSeconds(1)), NOW)).isTrue();
        assertThat(ExpiryPolicy.expired(row(false, NOW), NOW)).isFalse();
        assertThat(ExpiryPolicy.expired(row(false, null), NOW)).isFalse();
        assertThat(ExpiryPolicy.expired(row(true, NOW.minusSeconds(1)), NOW)).isFalse();
    }

    private static SessionRecord row(boolean connected, Instant expiresAt) {
        return new SessionRecord("c", null, 1, connected, false, 10, 5, 0, null, null, null, null, expiresAt);
    }
}
