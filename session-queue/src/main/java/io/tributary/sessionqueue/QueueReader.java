package io.tributary.sessionqueue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What a transport node does to the queue of a session connected to it: read it, take acknowledged messages out,
 * and keep the QoS 2 packet ids awaiting PUBCOMP. Every call is asynchronous and completes on a Redis client thread:
 * callers hop back to their event loop themselves. A call made while Redis is unreachable fails its future at once.
 */
public interface QueueReader {

    /** One stream entry: its sequence and its fields ({@link SessionQueueKeys#FIELD_TOPIC} and the others). */
    record Entry(long seq, Map<String, byte[]> fields) {

        public String text(String field) {
            byte[] value = fields.get(field);
            return value == null ? null : new String(value, StandardCharsets.UTF_8);
        }
    }

    /**
     * @param sentBefore the highest sequence fetched for sending before this fetch: an entry at or below it may
     *                   already have reached the client, so it goes out with DUP = 1
     */
    record Fetched(long sentBefore, List<Entry> entries) {}

    /**
     * Up to {@code count} entries from {@code fromSeq} on, in order; raises the queue's {@link SessionQueueKeys#SENT}
     * to the last one in the same step.
     */
    CompletableFuture<Fetched> fetch(String clientId, long fromSeq, int count);

    /** The client acknowledged (or will never get) the message at {@code seq}: it leaves the queue. */
    CompletableFuture<Long> remove(String clientId, long seq);

    /** The client acknowledged the messages at {@code seqs}: they leave the queue in one command. */
    CompletableFuture<Long> removeAll(String clientId, List<Long> seqs);

    /**
     * PUBREC of the QoS 2 message at {@code seq}, sent with {@code packetId}: it leaves the queue, its packet id
     * awaits PUBCOMP.
     */
    CompletableFuture<Object> released(String clientId, long seq, int packetId);

    /** PUBCOMP for {@code packetId}: the QoS 2 exchange is over. */
    CompletableFuture<Long> completed(String clientId, int packetId);

    /** Packet ids whose PUBREL is still owed to the client, ascending. */
    CompletableFuture<List<Integer>> releasedPacketIds(String clientId);

    /**
     * Told after the connection to Redis was re-established. Redis may have come back with less than it had (a crash
     * loses up to a second of writes with {@code appendfsync everysec}; a failover to a lagging replica too):
     * sequences may then be handed out again, so readers must read their queues from the start.
     */
    void onReconnected(Runnable listener);
}
