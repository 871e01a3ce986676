package io.tributary.session.will;

import io.tributary.common.session.WillDelay;
import java.time.Instant;

/** When session-service publishes a will whose connection ended at {@code endedAt}. */
public final class WillTiming {

    private WillTiming() {}

    public static Instant publishAt(Instant endedAt, long willDelaySeconds, long sessionExpirySeconds) {
        return endedAt.plusSeconds(WillDelay.effectiveSeconds(willDelaySeconds, sessionExpirySeconds));
    }

    /** A reconnect at {@code now} cancels a pending will only if it is not due yet; a due one is published. */
    public static boolean dueAt(Instant publishAt, Instant now) {
        return publishAt != null && !publishAt.isAfter(now);
    }
}
