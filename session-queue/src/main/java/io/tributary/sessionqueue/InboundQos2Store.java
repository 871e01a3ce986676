package io.tributary.sessionqueue;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where the packet ids of a persistent session's inbound QoS 2 publishes live between PUBREC and PUBREL, so that the
 * de-duplication MQTT 4.3.3 asks of the receiver outlives the connection: a client that reconnects (to any node) and
 * re-sends a PUBLISH it had got PUBREC for is acknowledged again without a second Kafka record, and its PUBREL is
 * answered with PUBCOMP. Every call is asynchronous; callers hop back to their event loop.
 *
 * <p>The ids live in the session's queue keys ({@link SessionQueueKeys#inboundQos2}): they are created, and deleted,
 * with the queue.
 */
public interface InboundQos2Store {

    /** The packet ids the session acknowledged with PUBREC and has not seen PUBREL for. */
    CompletableFuture<List<Integer>> inboundQos2Ids(String clientId);

    /**
     * Records {@code packetId} before PUBREC is sent. Completes with false when the session is no longer persistent
     * (its queue keys were deleted): nothing is recorded then, as nobody can resume that session.
     */
    CompletableFuture<Boolean> recordInboundQos2(String clientId, int packetId);

    /**
     * The session's incarnation: when session-service created its queue keys, so the QoS 2 de-duplication keys of a
     * session never match those of an earlier session of the same client id. Null when the session is not persistent.
     */
    CompletableFuture<String> sessionIncarnation(String clientId);

    /** Forgets {@code packetId} at PUBREL, before PUBCOMP is sent. */
    CompletableFuture<Long> releaseInboundQos2(String clientId, int packetId);
}
