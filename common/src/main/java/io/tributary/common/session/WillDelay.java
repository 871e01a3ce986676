package io.tributary.common.session;

/** When a will is due, the same rule for the transport node (which publishes undelayed wills) and session-service. */
public final class WillDelay {

    private WillDelay() {}

    /**
     * Seconds after the end of the connection at which the will is published: the Will Delay Interval, but never
     * after the session ends (MQTT 5 3.1.3.2.2: "until the Will Delay Interval has passed or the Session ends,
     * whichever happens first"). 0 means now.
     */
    public static long effectiveSeconds(long willDelaySeconds, long sessionExpirySeconds) {
        return Math.max(0, Math.min(willDelaySeconds, sessionExpirySeconds));
    }
}
