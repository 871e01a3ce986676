package io.tributary.session.tenant;

import io.tributary.common.session.LimitsApi;
import io.tributary.common.tenant.TenantTopics;
import io.tributary.session.store.Timestamps;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code tenants} table. */
@Repository
public class TenantStore {

    /**
     * The usage counts are those the quotas count, through the same partial indexes (V14, V15); retained messages
     * as a range of the COLLATE "C" topic index (V8), as {@code RetainedQuotas} counts them.
     */
    private static final String SELECT = """
            SELECT t.id, t.description, t.created_at, t.max_connections, t.max_sessions, t.max_subscriptions,
                t.connect_rate, t.max_publish_rate, t.max_publish_bytes_rate, t.max_delivery_bytes_rate, t.max_retained,
                t.max_queued_messages,
                (SELECT count(*) FROM credentials c WHERE c.tenant_id = t.id) AS credentials,
                (SELECT count(*) FROM sessions s
                 WHERE s.tenant_id = t.id AND s.tenant_id IS NOT NULL AND s.connected) AS connections,
                (SELECT count(*) FROM sessions s
                 WHERE s.tenant_id = t.id AND s.tenant_id IS NOT NULL AND s.session_expiry_seconds > 0) AS sessions,
                (SELECT count(*) FROM sessions s JOIN subscriptions sub ON sub.client_id = s.client_id
                 WHERE s.tenant_id = t.id AND s.tenant_id IS NOT NULL) AS subscriptions,
                (SELECT count(*) FROM retained_messages r
                 WHERE r.topic COLLATE "C" >= '$tenant/' || t.id || '/' AND r.topic COLLATE "C" < '$tenant/' || t.id || '0'
                    AND (r.expires_at IS NULL OR r.expires_at > now())) AS retained
            FROM tenants t""";

    private final JdbcClient jdbc;

    public TenantStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    private static final String INSERT = """
            INSERT INTO tenants (id, description, max_connections, max_sessions, max_subscriptions, connect_rate,
                max_publish_rate, max_publish_bytes_rate, max_delivery_bytes_rate, max_retained, max_queued_messages,
                created_at)
            VALUES (:id, :description, :connections, :sessions, :subscriptions, :rate, :publishRate, :publishBytes,
                :deliveryBytes, :retained, :queued, :now)
            ON CONFLICT (id) DO NOTHING""";

    private static final String UPDATE = """
            UPDATE tenants SET description = :description, max_connections = :connections, max_sessions = :sessions,
                max_subscriptions = :subscriptions, connect_rate = :rate, max_publish_rate = :publishRate,
                max_publish_bytes_rate = :publishBytes, max_delivery_bytes_rate = :deliveryBytes,
                max_retained = :retained,
                max_queued_messages = :queued
            WHERE id = :id""";

    /** Inserts a tenant; false when one with that id exists already. */
    public boolean insert(TenantRequest t, Instant now) {
        return withValues(jdbc.sql(INSERT), t)
                        .param("now", Timestamps.toDb(now))
                        .update()
                == 1;
    }

    /** Replaces a tenant's description and quotas; false when there is no such tenant. */
    public boolean update(TenantRequest t) {
        return withValues(jdbc.sql(UPDATE), t).update() == 1;
    }

    /** Binds a tenant's id, description and quotas, by the names insert and update use. */
    private static JdbcClient.StatementSpec withValues(JdbcClient.StatementSpec statement, TenantRequest t) {
        return statement
                .param("id", t.id())
                .param("description", t.description())
                .param("connections", t.maxConnections(), Types.INTEGER)
                .param("sessions", t.maxSessions(), Types.INTEGER)
                .param("subscriptions", t.maxSubscriptions(), Types.INTEGER)
                .param("rate", t.connectRate(), Types.INTEGER)
                .param("publishRate", t.maxPublishRate(), Types.INTEGER)
                .param("publishBytes", t.maxPublishBytesRate(), Types.BIGINT)
                .param("deliveryBytes", t.maxDeliveryBytesRate(), Types.BIGINT)
                .param("retained", t.maxRetained(), Types.INTEGER)
                .param("queued", t.maxQueuedMessages(), Types.INTEGER);
    }

    /**
     * The publish quotas of the tenants that have one (a rate, a bytes rate in or out, a retained or a queued-message
     * quota;
     * the list serves transport nodes and routers), each with whether
     * it holds as many unexpired retained messages as its retained quota: counted up to the quota only, so a poll
     * costs at most the quota's rows per tenant.
     */
    public List<LimitsApi.TenantPublishQuota> publishQuotas() {
        return jdbc.sql("""
                        SELECT t.id, t.max_publish_rate, t.max_publish_bytes_rate,
                            t.max_retained IS NOT NULL AND (SELECT count(*) FROM (
                                SELECT 1 FROM retained_messages r
                                WHERE r.topic COLLATE "C" >= '$tenant/' || t.id || '/'
                                    AND r.topic COLLATE "C" < '$tenant/' || t.id || '0'
                                    AND (r.expires_at IS NULL OR r.expires_at > now())
                                LIMIT t.max_retained) held) >= t.max_retained,
                            t.max_queued_messages, t.max_delivery_bytes_rate
                        FROM tenants t
                        WHERE t.max_publish_rate IS NOT NULL OR t.max_publish_bytes_rate IS NOT NULL
                            OR t.max_retained IS NOT NULL OR t.max_queued_messages IS NOT NULL
                            OR t.max_delivery_bytes_rate IS NOT NULL
                        ORDER BY t.id""")
                .query((rs, row) -> new LimitsApi.TenantPublishQuota(
                        rs.getString(1),
                        rs.getObject(2, Integer.class),
                        rs.getObject(3, Long.class),
                        rs.getBoolean(4),
                        rs.getObject(5, Integer.class),
                        rs.getObject(6, Long.class)))
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

    /** Deletes the tenant and the retained messages of its namespace; its credentials must be gone already. */
    public void delete(String id) {
        jdbc.sql("DELETE FROM retained_messages WHERE starts_with(topic, :prefix)")
                .param("prefix", TenantTopics.prefix(id))
                .update();
        jdbc.sql("DELETE FROM tenants WHERE id = :id").param("id", id).update();
    }

    private static Tenant map(ResultSet rs, int row) throws SQLException {
        return new Tenant(
                rs.getString("id"),
                rs.getString("description"),
                Timestamps.read(rs, "created_at"),
                rs.getLong("credentials"),
                rs.getObject("max_connections", Integer.class),
                rs.getLong("connections"),
                rs.getObject("max_sessions", Integer.class),
                rs.getLong("sessions"),
                rs.getObject("max_subscriptions", Integer.class),
                rs.getLong("subscriptions"),
                rs.getObject("connect_rate", Integer.class),
                rs.getObject("max_publish_rate", Integer.class),
                rs.getObject("max_publish_bytes_rate", Long.class),
                rs.getObject("max_delivery_bytes_rate", Long.class),
                rs.getObject("max_retained", Integer.class),
                rs.getLong("retained"),
                rs.getObject("max_queued_messages", Integer.class));
    }
}
