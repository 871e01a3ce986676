package io.tributary.transport.liveness;

/** What CONNECT handling needs to know of the node's standing with session-service ({@link NodeHeartbeat}). */
public interface NodeRegistration {

    /** The incarnation new sessions are recorded under. */
    String incarnation();

    /** True once session-service has recorded {@link #incarnation()}; CONNECTs are refused before. */
    boolean registered();
}
