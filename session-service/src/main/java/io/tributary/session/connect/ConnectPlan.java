package io.tributary.session.connect;

import java.time.Instant;

import io.tributary.session.expiry.ExpiryPolicy;
import io.tributary.session.store.SessionRecord;

/**
 * What a CONNECT does to the locked session row, decided from the row alone.
 *
 * @param newEpoch       the client's epoch from now on: stored epoch + 1 (1 for a new client, whose placeholder row
 *                       has epoch 0)
 * @param discardSession drop the stored subscriptions: clean start, new client, expired session, or a session that
 *                       was to end with the connection being taken over (expiry 0)
 * @param sessionPresent CONNACK Session Present: a previous session is resumed
 * @param takeoverNode   node holding a live connection of the client that must be closed; null when none
 */
public record ConnectPlan(long newEpoch, boolean discardSession, boolean sessionPresent, String takeoverNode) {

    /**
     * @param row     the locked row; for a new client the placeholder just inserted
     * @param created whether the row was inserted by this CONNECT
     */
    public static ConnectPlan of(SessionRecord row, boolean created, boolean cleanStart, Instant now) {
        boolean live = row.connected() && row.nodeId() != null;
        // A session with expiry 0 ends when its network connection closes, which the takeover is about to do.
        boolean endsWithTakenOverConnection = live && row.sessionExpirySeconds() == 0;
        boolean discard = created || cleanStart || ExpiryPolicy.expired(row, now) || endsWithTakenOverConnection;
        return new ConnectPlan(row.epoch() + 1, discard, !discard, live ? row.nodeId() : null);
    }

    public boolean takeover() {
        return takeoverNode != null;
    }
}
