package io.tributary.transport.acl;

import io.tributary.common.acl.TopicPermissions;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.common.tenant.TenantTopics;
import io.tributary.common.topic.SharedFilters;
import io.tributary.transport.connection.ClientConnection;

/**
 * What a connection may read, decided one way for every path that hands it messages: a SUBSCRIBE's filter, and a
 * message its persistent session queued earlier (perhaps under another ACL, or for a subscription the session no
 * longer holds) before it goes out on resume.
 */
public final class ReadPermission {

    private ReadPermission() {}

    /**
     * Whether the connection may subscribe to {@code clientFilter} (its own name, shared or not): never under
     * {@code $tenant/} (the tenants' namespaces, whatever the ACL), else as its ACL allows.
     */
    public static boolean maySubscribe(ClientConnection connection, String clientFilter) {
        return maySubscribe(connection.permissions(), clientFilter);
    }

    /** {@link #maySubscribe(ClientConnection, String)} for the connection's {@code permissions}. */
    public static boolean maySubscribe(TopicPermissions permissions, String clientFilter) {
        return !TenantTopics.isReserved(SharedFilters.innerFilter(clientFilter))
                && permissions.maySubscribe(clientFilter);
    }

    /**
     * Whether a message on {@code internalTopic} (the topic as stored, in the namespace's internal form) may go to the
     * connection: the topic is in the connection's namespace and a SUBSCRIBE to it would be allowed now.
     */
    public static boolean mayRead(ClientConnection connection, String internalTopic) {
        TenantNamespace namespace = connection.namespace();
        return namespace.owns(internalTopic) && maySubscribe(connection, namespace.clientFilter(internalTopic));
    }
}
