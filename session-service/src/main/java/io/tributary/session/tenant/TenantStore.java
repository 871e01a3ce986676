package io.tributary.session.tenant;

import io.tributary.common.session.SessionApi;
import io.tributary.common.tenant.TenantTopics;
import io.tributary.session.store.Timestamps;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code tenants} table. */
@Repository
public class TenantStore {

    private static final String SELECT = "SELECT t.id, t.description, t.created_at, t.max_connections,"
            + " t.max_publish_rate, t.max_publish_bytes_rate,"
            + " (SELECT count(*) FROM credentials c WHERE c.tenant_id = t.id) AS credentials,"
            + " (SELECT count(*) FROM sessions s WHERE s.tenant_id = t.id AND s.connected) AS connections"
            + " FROM tenants t";

    private final JdbcClient jdbc;

    public TenantStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Inserts a tenant; false when one with that id exists already. */
    public boolean insert(TenantRequest tenant, Instant now) {
        return jdbc.sql("INSERT INTO tenants (id, description, max_connections, max_publish_rate,"
                                + " max_publish_bytes_rate, created_at)"
                                + " VALUES (:id, :description, :max, :rate, :bytes, :now) ON CONFLICT (id) DO NOTHING")
                        .param("id", tenant.id())
                        .param("description", tenant.description())
                        .param("max", tenant.maxConnections(), Types.INTEGER)
                        .param("rate", tenant.maxPublishRate(), Types.INTEGER)
                        .param("bytes", tenant.maxPublishBytesRate(), Types.BIGINT)
                        .param("now", Timestamps.toDb(now))
                        .update()
                == 1;
    }

    /** Replaces a tenant's description and quotas; false when there is no such tenant. */
    public boolean update(TenantRequest tenant) {
        return jdbc.sql("UPDATE tenants SET description = :description, max_connections = :max,"
                                + " max_publish_rate = :rate, max_publish_bytes_rate = :bytes WHERE id = :id")
                        .param("id", tenant.id())
                        .param("description", tenant.description())
                        .param("max", tenant.maxConnections(), Types.INTEGER)
                        .param("rate", tenant.maxPublishRate(), Types.INTEGER)
                        .param("bytes", tenant.maxPublishBytesRate(), Types.BIGINT)
                        .update()
                == 1;
    }

    /**
     * The connection quotas of those of {@code ids} that have one, their rows locked until the end of the
     * transaction (in id order, so two batches never wait for each other crosswise): CONNECTs of one tenant with a
     * quota are admitted one transaction at a time, whichever session-service instance runs them. NO KEY UPDATE:
     * credentials joining the tenant meanwhile (their foreign key's KEY SHARE) do not wait for it.
     */
    public Map<String, Integer> lockConnectionQuotas(Collection<String> ids) {
        Map<String, Integer> quotas = new HashMap<>();
        jdbc.sql("SELECT id, max_connections FROM tenants WHERE id = ANY(:ids) AND max_connections IS NOT NULL"
                        + " ORDER BY id FOR NO KEY UPDATE")
                .param("ids", ids.toArray(String[]::new))
                .query(rs -> {
                    quotas.put(rs.getString(1), rs.getInt(2));
                });
        return quotas;
    }

    /** The publish quotas of the tenants that have one (either). */
    public List<SessionApi.TenantPublishQuota> publishQuotas() {
        return jdbc.sql("SELECT id, max_publish_rate, max_publish_bytes_rate FROM tenants"
                        + " WHERE max_publish_rate IS NOT NULL OR max_publish_bytes_rate IS NOT NULL ORDER BY id")
                .query((rs, row) -> new SessionApi.TenantPublishQuota(
                        rs.getString(1), rs.getObject(2, Integer.class), rs.getObject(3, Long.class)))
                .list();
    }

    public Optional<Tenant> find(String id) {
        return jdbc.sql(SELECT + " WHERE t.id = :id")
                .param("id", id)
                .query(TenantStore::map)
                .optional();
    }

    public boolean exists(String id) {
        return jdbc.sql("SELECT count(*) FROM tenants WHERE id = :id")
                        .param("id", id)
                        .query(Long.class)
                        .single()
                > 0;
    }

    public List<Tenant> page(long offset, int limit) {
        return jdbc.sql(SELECT + " ORDER BY t.id LIMIT :limit OFFSET :offset")
                .param("limit", limit)
                .param("offset", offset)
                .query(TenantStore::map)
                .list();
    }

    /** Admin users scoped to the tenant (a tenant with any cannot be deleted). */
    public long countScopedAdmins(String id) {
        return jdbc.sql("SELECT count(*) FROM admin_users WHERE tenant_id = :id")
                .param("id", id)
                .query(Long.class)
                .single();
    }

    public long count() {
        return jdbc.sql("SELECT count(*) FROM tenants").query(Long.class).single();
    }

    /** Locks the tenant row until the end of the transaction; empty when there is none. */
    public Optional<Long> lockAndCountCredentials(String id) {
        return jdbc.sql("SELECT (SELECT count(*) FROM credentials c WHERE c.tenant_id = t.id) FROM tenants t"
                        + " WHERE t.id = :id FOR UPDATE")
                .param("id", id)
                .query(Long.class)
                .optional();
    }

    /** Per tenant of {@code ids} with a client connected, how many are (sessions marked connected, any node). */
    public Map<String, Long> countConnected(Collection<String> ids) {
        Map<String, Long> counts = new HashMap<>();
        jdbc.sql("SELECT tenant_id, count(*) FROM sessions WHERE connected AND tenant_id = ANY(:ids)"
                        + " GROUP BY tenant_id")
                .param("ids", ids.toArray(String[]::new))
                .query(rs -> {
                    counts.put(rs.getString(1), rs.getLong(2));
                });
        return counts;
    }

    /** Those of {@code clientIds} connected now with a session in one of the tenants {@code ids}. */
    public List<String> connectedClients(Collection<String> clientIds, Collection<String> ids) {
        if (clientIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("SELECT client_id FROM sessions WHERE client_id = ANY(:clients) AND connected"
                        + " AND tenant_id = ANY(:ids)")
                .param("clients", clientIds.toArray(String[]::new))
                .param("ids", ids.toArray(String[]::new))
                .query(String.class)
                .list();
    }

    /** Deletes the tenant and the retained messages of its namespace; its credentials must be gone already. */
    public void delete(String id) {
        jdbc.sql("DELETE FROM retained_messages WHERE starts_with(topic, :prefix)")
                .param("prefix", TenantTopics.prefix(id))
                .update();
        jdbc.sql("DELETE FROM tenants WHERE id = :id").param("id", id).update();
    }

    private static Tenant map(ResultSet rs, int row) throws SQLException {
        int max = rs.getInt("max_connections");
        Integer maxConnections = rs.wasNull() ? null : max; // wasNull() speaks of the last column read
        return new Tenant(
                rs.getString("id"),
                rs.getString("description"),
                Timestamps.read(rs, "created_at"),
                rs.getLong("credentials"),
                maxConnections,
                rs.getLong("connections"),
                rs.getObject("max_publish_rate", Integer.class),
                rs.getObject("max_publish_bytes_rate", Long.class));
    }
}
