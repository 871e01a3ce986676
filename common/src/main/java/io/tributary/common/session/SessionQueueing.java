package io.tributary.common.session;

/**
 * Whether a connection's session is served from its session queue (routers append its QoS 1/2 messages to the queue
 * in Redis, the transport node reads them from there) rather than delivered live only. Session-service, which marks
 * the subscriptions in the feed, and the transport node, which reads the queue, decide it with this one function from
 * the same inputs, so they cannot disagree.
 *
 * <p>A session that may outlive the connection (Session Expiry Interval above 0; MQTT 3.x clean session 0) needs
 * its queue. So does a resumed session (Clean Start 0, Session Present) whatever expiry the new CONNECT carries:
 * MQTT 5 3.1.2.4 resumes "the existing Session", whose queued and unacknowledged messages must be delivered on this
 * connection; with expiry 0 the session, queue included, ends only when this connection does (3.1.2.11.2).
 */
public final class SessionQueueing {

    private SessionQueueing() {
    }

    /**
     * @param sessionExpirySeconds the expiry the CONNECT asked for (MQTT 3.x clean session 0: never)
     * @param sessionPresent       whether the CONNECT resumed a stored session (CONNACK Session Present)
     */
    public static boolean queueBacked(long sessionExpirySeconds, boolean sessionPresent) {
        return sessionExpirySeconds > 0 || sessionPresent;
    }
}
