package io.tributary.sessionqueue;

import java.time.Instant;
import java.util.Collection;

/**
 * What session-service does to session queues: it owns their lifecycle. A persistent session gets one at CONNECT,
 * and it is deleted with the session — clean start, expiry 0 at disconnect, expiry, removal by an administrator.
 * Routing appends only to a queue that exists, so a deleted session's queue is not brought back by a late append.
 *
 * <p>Every call blocks until Redis answered (or the command timeout passed) and throws Lettuce's exception on a
 * failure: a persistent session without its queue would lose messages, so the caller fails too.
 */
public interface QueueAdmin {

    /** Length, messages dropped by the limit, last sequence handed out. */
    record Stats(long queued, long dropped, long lastSeq) {
        public static final Stats NONE = new Stats(0, 0, 0);
    }

    /**
     * Makes sure these persistent sessions have a queue (kept as it is where one exists), pipelined.
     *
     * @param now written as the session's incarnation ({@link SessionQueueKeys#CREATED}) where a queue is created
     */
    void ensureAll(Collection<String> clientIds, Instant now);

    /** {@link #delete} for many sessions, pipelined. */
    void deleteAll(Collection<String> clientIds);

    /**
     * Deletes the queue of {@code clientId}, with everything it held, and the packet ids of the client's own QoS 2
     * publishes awaiting PUBREL: they belong to the session too.
     */
    void delete(String clientId);

    /** Length, drops and last sequence of the queue, read in one step; {@link Stats#NONE} when there is none. */
    Stats stats(String clientId);
}
