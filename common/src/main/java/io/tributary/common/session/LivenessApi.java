package io.tributary.common.session;

/**
 * The bodies of the heartbeat call of {@link SessionApi} ({@link SessionApi#HEARTBEAT}) by which session-service
 * tells live transport nodes from dead ones.
 */
public final class LivenessApi {

    private LivenessApi() {}

    /**
     * A transport node is alive. Sent every few seconds; a node not heard of for the configured timeout is declared
     * dead and the sessions still connected on that incarnation are ended (wills published).
     *
     * @param incarnation random id of this process, new at every start: a restarted node with the same node id is a
     *                    new incarnation, and only the old one's sessions are ended
     */
    public record HeartbeatRequest(String nodeId, String incarnation) {}

    /**
     * @param declaredDead true when this incarnation was already declared dead (it missed heartbeats): its sessions
     *                     were ended, so the node must close its connections without wills and start a new
     *                     incarnation before accepting clients again
     */
    public record HeartbeatResponse(boolean declaredDead) {}
}
