package io.tributary.routing.fanout;

/**
 * How a router picks the one member of a share group that receives a message ({@code TRIBUTARY_SHARED_STRATEGY}).
 */
public enum SharedStrategy {
    /** Members in turn (by client id order), per group, counted in this router's memory. */
    ROUND_ROBIN,
    /** A member drawn uniformly at random for every message. */
    RANDOM,
    /**
     * The member at hash(publisher client id) among the group's online members, sorted by client id: messages of
     * one publisher go to one member while the group's membership does not change.
     */
    STICKY
}
