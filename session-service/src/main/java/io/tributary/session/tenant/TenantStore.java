package io.tributary.session.tenant;

import io.tributary.common.tenant.TenantTopics;
import io.tributary.session.store.Timestamps;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code tenants} table. */
@Repository
public class TenantStore {

    private static final String SELECT = "SELECT t.id, t.description, t.created_at,"
            + " (SELECT count(*) FROM credentials c WHERE c.tenant_id = t.id) AS credentials FROM tenants t";

    private final JdbcClient jdbc;

    public TenantStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Inserts a tenant; false when one with that id exists already. */
    public boolean insert(String id, String description, Instant now) {
        return jdbc.sql("INSERT INTO tenants (id, description, created_at) VALUES (:id, :description, :now)"
                                + " ON CONFLICT (id) DO NOTHING")
                        .param("id", id)
                        .param("description", description)
                        .param("now", Timestamps.toDb(now))
                        .update()
                == 1;
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
                rs.getLong("credentials"));
    }
}
