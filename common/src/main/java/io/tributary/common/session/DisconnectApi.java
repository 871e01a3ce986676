package io.tributary.common.session;

import java.util.List;

/**
 * The bodies of the DISCONNECT calls of {@link SessionApi} (one ended connection and the batches the nodes send),
 * and what becomes of the will left in CONNECT ({@link ConnectApi.Will}). Paths are in {@link SessionApi}.
 */
public final class DisconnectApi {

    private DisconnectApi() {}

    /**
     * The connection of epoch {@code epoch} ended. Ignored when the epoch is no longer current (taken over).
     *
     * @param sessionExpirySeconds the expiry in force at the end (MQTT 5 DISCONNECT may change it); 0 removes the
     *                             session and its subscriptions now
     * @param will                 what to do with the stored will; null (an older transport, which published wills
     *                             itself) is treated as {@link WillOutcome#PUBLISHED}
     */
    public record DisconnectRequest(
            String clientId, long epoch, String nodeId, long sessionExpirySeconds, WillOutcome will) {

        public DisconnectRequest(String clientId, long epoch, String nodeId, long sessionExpirySeconds) {
            this(clientId, epoch, nodeId, sessionExpirySeconds, WillOutcome.DISCARD);
        }
    }

    /** What became of a connection's will when the connection ended (told to session-service at disconnect). */
    public enum WillOutcome {
        /** No will, or a normal DISCONNECT without reason 0x04: the will is deleted, never published. */
        DISCARD,
        /** The node published it itself (no will delay): session-service deletes its copy. */
        PUBLISHED,
        /** Session-service publishes it min(will delay, session expiry) after now, unless the client returns. */
        SCHEDULE
    }

    /** Ended connections of one node, applied in one go (each as {@link SessionApi#DISCONNECT} would). */
    public record DisconnectBatch(List<DisconnectRequest> requests) {}
}
