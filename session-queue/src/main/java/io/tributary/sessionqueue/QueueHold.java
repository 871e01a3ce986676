package io.tributary.sessionqueue;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What a transport node does to join a replay's history to a persistent session's queue, without a gap or a duplicate
 * at the seam. While a replay {@link #hold holds} the queue, routing appends new entries to a hold stream instead
 * ({@code append.lua}); the node appends the QoS 1/2 history to the queue ({@link #appendHistory}) and then
 * {@link #release releases} the hold: the held entries move behind the history, those the history already has
 * (same publish position) are dropped. A hold has a time to live, so a replay whose node died ends by itself; its
 * held entries are moved by the next {@link #release release} without a token (the session's next connection).
 */
public interface QueueHold {

    /** Outcome of {@link #hold}. */
    enum Held {
        HELD,
        /** Another replay holds the queue (or an expired hold awaits its release). */
        BUSY,
        /** The session has no queue. */
        NO_QUEUE
    }

    /** One message of a replayed history: its publish position, MQTT topic, payload and encoded headers. */
    record HistoryEntry(int partition, long offset, byte[] topic, byte[] payload, byte[] encodedHeaders) {}

    /**
     * Outcome of {@link #release}: {@code stillHeldMillis} above 0 when another replay still holds the queue (nothing
     * was done); otherwise the entries moved behind the history, the seam duplicates dropped, and the queue's last
     * sequence.
     */
    record Released(long stillHeldMillis, long moved, long dropped, long lastSeq) {

        public boolean done() {
            return stillHeldMillis <= 0;
        }
    }

    /** Holds the queue of {@code clientId} for {@code token}, for at most {@code ttl}. */
    CompletableFuture<Held> hold(String clientId, String token, Duration ttl);

    /**
     * Appends history entries (in order) to the held queue.
     *
     * @return how many were appended (a position this replay appended, or one the client was already sent from the
     *     queue, is not); a failed future when the queue is no longer held by {@code token}
     */
    CompletableFuture<Long> appendHistory(String clientId, String token, List<HistoryEntry> entries);

    /**
     * Ends the hold of {@code token} (null: only a hold whose time ran out), moving the held entries behind the
     * history; the positions the history covered are remembered for {@code coveredFor}.
     */
    default CompletableFuture<Released> release(String clientId, String token, Duration coveredFor) {
        return release(clientId, token, coveredFor, List.of(), Map.of());
    }

    /**
     * Ends the hold of {@code token} as {@link #release(String, String, Duration)} does, and drops the held entries
     * that belong to the history: below their publish partition's end offset in {@code endOffsets} (taken after the
     * hold) on a topic one of {@code filters} matches — the history has them, or did not ask for them.
     */
    CompletableFuture<Released> release(
            String clientId,
            String token,
            Duration coveredFor,
            Collection<String> filters,
            Map<Integer, Long> endOffsets);
}
