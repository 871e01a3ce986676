package io.tributary.session.connect;

import io.tributary.session.expiry.ExpiryPolicy;
import io.tributary.session.store.SessionRecord;
import java.time.Instant;

/**
 * What a CONNECT does to the locked session row, decided from the row and the epoch drawn for the new connection.
 *
 * @param newEpoch       the client's epoch from now on, drawn from the {@code session_epochs} sequence under the row
 *                       lock; greater than the stored epoch (0 in a new client's placeholder row)
 * @param discardSession drop the stored subscriptions: clean start, new client, expired session, or a session that
 *                       was to end with the connection being taken over (expiry 0)
 * @param sessionPresent CONNACK Session Present: a previous session is resumed
 * @param takeoverNode   node holding a live connection of the client that must be closed; null when none
 */
public record ConnectPlan(long newEpoch, boolean discardSession, boolean sessionPresent, String takeoverNode) {

    /**
     * @param row      the locked row; for a new client the placeholder just inserted
     * @param created  whether the row was inserted by this CONNECT
     * @param newEpoch the epoch drawn for this connection
     * @throws IllegalStateException when {@code newEpoch} is not above the stored epoch: the live connection would
     *                               ignore the TAKEOVER, and later commands could close the new connection (the
     *                               sequence must have been reset)
     */
    public static ConnectPlan of(SessionRecord row, boolean created, boolean cleanStart, Instant now, long newEpoch) {
        if (newEpoch <= row.epoch()) {
            throw new IllegalStateException("epoch " + newEpoch + " drawn for client " + row.clientId()
                    + " is not above its stored epoch " + row.epoch() + "; was the session_epochs sequence reset?");
        }
        boolean live = row.connected() && row.nodeId() != null;
        // A session with expiry 0 ends when its network connection closes, which the takeover is about to do.
        boolean endsWithTakenOverConnection = live && row.sessionExpirySeconds() == 0;
        boolean discard = created || cleanStart || ExpiryPolicy.expired(row, now) || endsWithTakenOverConnection;
        return new ConnectPlan(newEpoch, discard, !discard, live ? row.nodeId() : null);
    }

    public boolean takeover() {
        return takeoverNode != null;
    }
}
