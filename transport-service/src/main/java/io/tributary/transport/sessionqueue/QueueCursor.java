package io.tributary.transport.sessionqueue;

import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import io.tributary.transport.connection.ClientConnection;

/**
 * How far one connection of a persistent session has read its session queue. Event-loop-only state, kept on the
 * connection's channel.
 */
public final class QueueCursor {

    private static final AttributeKey<QueueCursor> KEY = AttributeKey.valueOf("tributary.queueCursor");

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
    /** A replay is joining its history to the queue: nothing new is handed out meanwhile. */
    boolean paused;
    /** A retry of a failed fetch is scheduled. */
    boolean retryScheduled;
    /** An entry the connection's ACL does not allow was dropped and logged ({@link QueuedReadCheck}). */
    boolean readDenialLogged;

    public long lastSeq() {
        return lastSeq;
    }

    /** The cursor of a queue-backed connection, created at first use; null when the session ends with it. */
    static QueueCursor of(ClientConnection connection) {
        if (!connection.queueBacked()) {
            return null;
        }
        Attribute<QueueCursor> attribute = connection.channel().attr(KEY);
        QueueCursor cursor = attribute.get();
        if (cursor == null) {
            cursor = new QueueCursor();
            attribute.set(cursor);
        }
        return cursor;
    }
}
