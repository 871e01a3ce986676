package io.tributary.routing.feed;

import io.tributary.common.subscription.SubscriptionRecord;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Notices, in the subscription feed, a persistent session that is now connected on a node (a new epoch, or a new
 * node): that node must be told to read the session's queue. While the index still had the client offline or on its
 * previous node, messages for it were appended to its queue and woke nobody there, and the new connection may have
 * read its queue before they were appended. The router wakes the node once the feed is applied: every append it made
 * with the old location is complete by then (the loop appends and awaits within a batch), so the node's read finds
 * them. Later appends see the new location and wake the node themselves.
 *
 * <p>Used only by the routing loop thread.
 */
public final class SessionArrivals {

    /**
     * How old a feed record may be and still wake its node. Only a connection that read its queue while this router
     * was between a feed catch-up and an append needs the wake-up, milliseconds before the record is applied; older
     * records are history re-read after a restart or a rebalance, and waking every connected persistent session then
     * would read every queue at once for nothing (nothing is routed before the replay is applied).
     */
    static final long FRESH_MS = 60_000;

    private final Map<String, String> pending = new LinkedHashMap<>();

    /**
     * One applied feed change: {@code previous} is what the index held for the same subscription before, {@code
     * current} what it holds now (null: removed); {@code recordTimeMs} the feed record's timestamp.
     */
    public void applied(SubscriptionRecord previous, SubscriptionRecord current, long recordTimeMs, long nowMs) {
        if (current == null || !current.persistent() || !current.online() || nowMs - recordTimeMs > FRESH_MS) {
            return;
        }
        if (previous != null
                && previous.epoch() == current.epoch()
                && Objects.equals(previous.nodeId(), current.nodeId())) {
            return;
        }
        pending.put(current.clientId(), current.nodeId());
    }

    /** The sessions that arrived since the last call, client id to node, once each. */
    public Map<String, String> drain() {
        if (pending.isEmpty()) {
            return Map.of();
        }
        Map<String, String> arrived = new LinkedHashMap<>(pending);
        pending.clear();
        return arrived;
    }
}
