package io.tributary.session.expiry;

import io.tributary.session.store.SessionRecord;
import java.time.Instant;

/** MQTT session expiry rules as session-service applies them. */
public final class ExpiryPolicy {

    /** Session Expiry Interval meaning "never expires" (MQTT 5 section 3.1.2.11.2). */
    public static final long NEVER = 0xFFFFFFFFL;

    private ExpiryPolicy() {}

    /** When a session that goes offline at {@code now} expires; null = never. */
    public static Instant expiresAt(Instant now, long sessionExpirySeconds) {
        if (sessionExpirySeconds >= NEVER) {
            return null;
        }
        return now.plusSeconds(sessionExpirySeconds);
    }

    /** True when the stored session is offline and its expiry has passed: it must be treated as gone. */
    public static boolean expired(SessionRecord session, Instant now) {
        return !session.connected()
                && session.expiresAt() != null
                && session.expiresAt().isBefore(now);
    }
}
