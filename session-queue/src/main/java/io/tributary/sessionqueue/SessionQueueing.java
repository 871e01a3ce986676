package io.tributary.sessionqueue;

/**
 * The "queued or live" decision, in one place. Whether a connection's session is served from its session queue
 * (routers append its QoS 1/2 messages to the queue in Redis, the transport node reads them from there) rather than
 * delivered live only: session-service, which marks the subscriptions in the feed ({@code persistent}), and the
 * transport node, which reads the queue, decide it with {@link #queueBacked} from the same inputs, so they cannot
 * disagree. And which messages of such a session go through its queue: the router decides it per message with
 * {@link #viaQueue}, and names the sessions it queued for in the downlink record, so the transport node does not
 * deliver those live as well.
 *
 * <p>A session that may outlive the connection (Session Expiry Interval above 0; MQTT 3.x clean session 0) needs
 * its queue. So does a resumed session (Clean Start 0, Session Present) whatever expiry the new CONNECT carries:
 * MQTT 5 3.1.2.4 resumes "the existing Session", whose queued and unacknowledged messages must be delivered on this
 * connection; with expiry 0 the session, queue included, ends only when this connection does (3.1.2.11.2).
 */
public final class SessionQueueing {

    private SessionQueueing() {}

    /**
     * @param sessionExpirySeconds the expiry the CONNECT asked for (MQTT 3.x clean session 0: never)
     * @param sessionPresent       whether the CONNECT resumed a stored session (CONNACK Session Present)
     */
    public static boolean queueBacked(long sessionExpirySeconds, boolean sessionPresent) {
        return sessionExpirySeconds > 0 || sessionPresent;
    }

    /**
     * Whether a message for a queue-backed session goes through its queue: when it reaches the session at QoS 1 or 2
     * (the publish QoS downgraded to the subscription's). At QoS 0 it goes straight to the session's node like a live
     * session's, and is not kept for the session while it is offline
     * (MQTT lets a server keep or drop QoS 0 messages of an offline session).
     */
    public static boolean viaQueue(int publishQos, int subscriptionQos) {
        return Math.min(publishQos, subscriptionQos) > 0;
    }
}
