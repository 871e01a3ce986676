package io.tributary.transport.connection;

import io.tributary.transport.metering.TenantMeters;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** The connections accepted on this node, by client id. One entry per client id: the newest epoch wins. */
public final class ConnectionRegistry {

    private final ConcurrentMap<String, ClientConnection> byClientId = new ConcurrentHashMap<>();
    private final TenantMeters meters;

    /** A registry whose tenants' usage is counted but sent nowhere (tests). */
    public ConnectionRegistry() {
        this(TenantMeters.unmetered());
    }

    /** @param meters where the accepted connections' tenants' usage is counted */
    public ConnectionRegistry(TenantMeters meters) {
        this.meters = meters;
    }

    /** The usage counters of this node's tenants. */
    public TenantMeters meters() {
        return meters;
    }

    /**
     * Registers {@code connection}, returning the older connection of the same client id it displaced (which the
     * caller must close), or {@code null}. If a newer epoch is already registered, nothing changes and
     * {@code connection} itself is returned: it lost the race and must be closed.
     */
    public ClientConnection register(ClientConnection connection) {
        ClientConnection[] displaced = new ClientConnection[1];
        byClientId.compute(connection.clientId(), (id, existing) -> {
            if (existing == null) {
                return connection;
            }
            if (existing.epoch() > connection.epoch()) {
                displaced[0] = connection;
                return existing;
            }
            displaced[0] = existing;
            return connection;
        });
        return displaced[0];
    }

    /** Removes {@code connection} if it is still the registered one for its client id. */
    public void unregister(ClientConnection connection) {
        byClientId.remove(connection.clientId(), connection);
    }

    public ClientConnection get(String clientId) {
        return byClientId.get(clientId);
    }

    public int size() {
        return byClientId.size();
    }

    public Collection<ClientConnection> all() {
        return byClientId.values();
    }

    /**
     * Bytes of outbound QoS 1/2 messages every connection holds (in flight and waiting), summed. Read off the
     * connections' event loops, so each figure may be slightly stale: fine for a gauge and the node's budget.
     */
    public long outboundBytesHeld() {
        long held = 0;
        for (ClientConnection connection : byClientId.values()) {
            held += connection.outbound().bytesHeld();
        }
        return held;
    }
}
