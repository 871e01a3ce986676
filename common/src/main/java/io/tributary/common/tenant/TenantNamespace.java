package io.tributary.common.tenant;

import io.tributary.common.sys.SysTopics;
import io.tributary.common.topic.SharedFilters;

/**
 * The topic namespace of one connection: the global one (no tenant: names are used as they are) or a tenant's,
 * which mounts every name the client uses under {@link TenantTopics#prefix}. Clients never see or write the prefix:
 * names are mapped inward at PUBLISH, SUBSCRIBE, UNSUBSCRIBE and for the will, and outward on delivery.
 *
 * <p>Shared subscriptions keep their {@code $share/<group>/} in front ({@code $share/g/meters/+} becomes
 * {@code $share/g/$tenant/acme/meters/+}), so a share group never spans tenants. {@code $SYS} filters stay as they
 * are: the broker's statistics are readable by every client, and nobody can publish there.
 */
public final class TenantNamespace {

    public static final TenantNamespace GLOBAL = new TenantNamespace(null);

    private final String tenant;
    private final String prefix;

    private TenantNamespace(String tenant) {
        this.tenant = tenant;
        this.prefix = tenant == null ? "" : TenantTopics.prefix(tenant);
    }

    /** The namespace of {@code tenant}; {@link #GLOBAL} for null. */
    public static TenantNamespace of(String tenant) {
        return tenant == null ? GLOBAL : new TenantNamespace(tenant);
    }

    /** The tenant id, null for the global namespace. */
    public String tenant() {
        return tenant;
    }

    public boolean global() {
        return tenant == null;
    }

    /** The internal name of a topic name the client used (validated, not reserved). */
    public String topic(String clientTopic) {
        return tenant == null ? clientTopic : prefix + clientTopic;
    }

    /** The internal form of a filter the client used (validated, not reserved), shared or not. */
    public String filter(String clientFilter) {
        if (tenant == null) {
            return clientFilter;
        }
        if (SharedFilters.isShared(clientFilter)) {
            String inner = SharedFilters.innerFilter(clientFilter);
            String group = clientFilter.substring(0, clientFilter.length() - inner.length());
            return group + innerFilter(inner);
        }
        return innerFilter(clientFilter);
    }

    private String innerFilter(String inner) {
        return SysTopics.isSys(inner) ? inner : prefix + inner;
    }

    /** The name the client knows for one of its internal filters (the inverse of {@link #filter}). */
    public String clientFilter(String internalFilter) {
        if (tenant == null) {
            return internalFilter;
        }
        String inner = SharedFilters.innerFilter(internalFilter);
        String group = internalFilter.substring(0, internalFilter.length() - inner.length());
        return group + (inner.startsWith(prefix) ? inner.substring(prefix.length()) : inner);
    }

    /**
     * Whether a stored internal filter belongs to this namespace: in a tenant, under its prefix (or {@code $SYS});
     * in the global namespace, outside every tenant's. A session resumed from another namespace drops the others.
     */
    public boolean owns(String internalFilter) {
        String inner = SharedFilters.innerFilter(internalFilter);
        if (tenant == null) {
            return !TenantTopics.isReserved(inner);
        }
        return inner.startsWith(prefix) || SysTopics.isSys(inner);
    }

    @Override
    public String toString() {
        return tenant == null ? "global" : "tenant " + tenant;
    }
}
