package io.tributary.transport.sessionqueue;

/**
 * How far one connection of a persistent session has read its session queue. Event-loop-only state, kept on the
 * {@link io.tributary.transport.connection.ClientConnection}.
 */
public final class QueueCursor {

    /** Highest sequence handed to the outbound path (or skipped) by this connection; 0 = none yet. */
    long lastSeq;
    /** The queue may hold entries after {@link #lastSeq}: true at start, after a full read and after a wake-up. */
    boolean moreMayExist;
    /** A wake-up arrived while a fetch was running: read again after it, even if it came back short. */
    boolean wokenDuringFetch;
    boolean fetching;
    /** PUBRELs owed from a previous connection have been re-sent: the queue may be read. */
    boolean started;
    /** Bumped when the cursor is rewound; a fetch started before answers for a queue that may have changed. */
    int generation;
    /** Consecutive failed fetches (Redis unreachable), for the retry delay. */
    int failures;
    /** A retry of a failed fetch is scheduled. */
    boolean retryScheduled;

    public long lastSeq() {
        return lastSeq;
    }
}
