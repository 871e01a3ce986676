package io.tributary.session.admin;

import io.tributary.sessionqueue.QueueAdmin;

/** What the admin API shows of a session queue: messages waiting, dropped because it was full, last sequence. */
public record SessionQueueStats(long queued, long dropped, long lastSeq) {

    static SessionQueueStats of(QueueAdmin.Stats stats) {
        return new SessionQueueStats(stats.queued(), stats.dropped(), stats.lastSeq());
    }
}
