package io.tributary.sessionqueue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What routing-service does to session queues: append publishes. Asynchronous; appends sent in a row reach Redis in
 * that order, so the appends of one publish partition reach every queue in offset order.
 *
 * <p>Appends are idempotent per publish partition: a queue remembers the last offset it got from each, so a batch
 * routed again after a failure (or by the next owner of the partition) appends nothing twice — QoS 2 stays exactly
 * once. Nothing is appended when the session has no queue ({@link SessionQueueKeys#CREATED} missing: the session
 * ended or is not persistent), so a late router cannot recreate the queue of a deleted session.
 *
 * <p>A queue holds at most a number of messages and a number of bytes (the byte budget, the entries' fields counted
 * in {@link SessionQueueKeys#BYTES}); the full policy applies to both the same way.
 */
public interface QueueAppender {

    /**
     * Outcome of one append. {@code seq} is where the message is; 0 when it is not in the queue.
     *
     * @param dropped         messages this append dropped (what the session's {@link SessionQueueKeys#DROPPED} grew
     *                        by): older ones that made room, or the refused message itself (1)
     * @param droppedForBytes how many of {@code dropped} the byte budget dropped rather than the message limit
     */
    record Appended(Status status, long seq, long dropped, long droppedForBytes) {

        /** Drops by the message limit (the global one, or a lower one given to {@link #appendAll}). */
        public long droppedForCount() {
            return dropped - droppedForBytes;
        }
    }

    enum Status {
        /** Appended at {@code seq}; {@code dropped} older messages made room (by the message limit or the bytes). */
        APPENDED,
        /** Appended before (replayed batch); {@code seq} is the queue's last sequence, a safe wake-up hint. */
        REPLAYED,
        /**
         * Held behind a replay ({@link QueueHold}): moved into the queue after the history; {@code seq} is the queue's
         * last sequence (at least 1), a safe wake-up hint that keeps the message off the live path; {@code dropped}
         * older messages made room, as for {@link #APPENDED}.
         */
        HELD,
        /**
         * Refused ({@code dropped} 1): the queue was full, by its message limit or its byte budget
         * ({@code droppedForBytes} 1), and the policy drops the newest; or the message alone is larger than the byte
         * budget, whatever the policy (dropping the whole queue would not make room for it).
         */
        REFUSED_FULL,
        /** No queue: the session is gone or not persistent. */
        NO_SESSION
    }

    /**
     * One message for {@link #appendAll}.
     *
     * @param encodedHeaders the publish record's headers, {@link EntryHeaders#encode encoded} once per publish
     * @param sharedFilters  the {@code $share/g/f} filters a share group chose this session for; empty when none
     */
    record Message(ConsumerRecord<byte[], byte[]> publish, byte[] encodedHeaders, String sharedFilters) {}

    /**
     * Appends {@code messages}, all from publish partition {@code partition} and in offset order, to the queue of
     * {@code clientId} in one step: all or nothing, so the per-partition high-water offset that makes appends
     * idempotent never runs ahead of an append that failed.
     *
     * @param limit most messages this queue may hold, at most the appender's own limit (a tenant's
     *              {@code maxQueuedMessages}); {@link Integer#MAX_VALUE}: the appender's limit
     * @return one outcome per message, in order; a failed future when Redis did not answer (route the batch again)
     */
    CompletableFuture<List<Appended>> appendAll(String clientId, int partition, List<Message> messages, int limit);

    /** {@link #appendAll(String, int, List, int)} within the appender's own limit. */
    default CompletableFuture<List<Appended>> appendAll(String clientId, int partition, List<Message> messages) {
        return appendAll(clientId, partition, messages, Integer.MAX_VALUE);
    }

    /** Appends one publish to the queue of {@code clientId}, encoding the record's headers itself. */
    default CompletableFuture<Appended> append(
            String clientId, ConsumerRecord<byte[], byte[]> publish, String sharedFilters) {
        return appendAll(
                        clientId,
                        publish.partition(),
                        List.of(new Message(publish, EntryHeaders.encode(publish.headers()), sharedFilters)))
                .thenApply(all -> all.get(0));
    }
}
