package io.tributary.session.tenant.quota;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The queries the quotas are enforced with. Every count says {@code tenant_id IS NOT NULL} in so many words, so the
 * planner proves the partial indexes (V14, V15) usable whether it plans for the values or generically.
 */
@Repository
public class QuotaStore {

    /**
     * A tenant's CONNECT quotas; each null when it has none.
     *
     * @param locked whether its row is locked until the end of the transaction (it has a connection or a session
     *               quota: counted under the lock)
     */
    public record ConnectQuotas(
            String tenant,
            @Nullable Integer maxConnections,
            @Nullable Integer maxSessions,
            @Nullable Integer connectRate,
            boolean locked) {}

    /** A client's session as the CONNECT quotas see it: whether it is connected, and whether it is persistent. */
    public record Held(boolean connected, boolean persistent) {}

    /** Counts of the tenants' connected clients and persistent sessions; absent: none (or not asked for). */
    public record Usage(Map<String, Long> connections, Map<String, Long> sessions) {}

    private final JdbcClient jdbc;

    public QuotaStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The CONNECT quotas of those of {@code ids} that have any, in one statement. The rows of those with a
     * connection or session quota are locked until the end of the transaction (in id order, so two batches never wait
     * for each other crosswise): their CONNECTs are admitted one transaction at a time, whichever session-service
     * instance runs them. NO KEY UPDATE: credentials joining the tenant meanwhile (their foreign key's KEY SHARE) do
     * not wait for it. A tenant with only a rate is read, not locked: the rate is counted in Redis.
     */
    public List<ConnectQuotas> lockConnectQuotas(Collection<String> ids) {
        return jdbc.sql("""
                        WITH locked AS (
                            SELECT id, max_connections, max_sessions, connect_rate FROM tenants
                            WHERE id = ANY(:ids) AND (max_connections IS NOT NULL OR max_sessions IS NOT NULL)
                            ORDER BY id FOR NO KEY UPDATE)
                        SELECT id, max_connections, max_sessions, connect_rate, true AS locked FROM locked
                        UNION ALL
                        SELECT id, max_connections, max_sessions, connect_rate, false FROM tenants
                        WHERE id = ANY(:ids) AND max_connections IS NULL AND max_sessions IS NULL
                            AND connect_rate IS NOT NULL""")
                .param("ids", ids.toArray(String[]::new))
                .query((rs, row) -> new ConnectQuotas(
                        rs.getString(1),
                        rs.getObject(2, Integer.class),
                        rs.getObject(3, Integer.class),
                        rs.getObject(4, Integer.class),
                        rs.getBoolean(5)))
                .list();
    }

    /**
     * Connected clients of the tenants {@code connectionTenants} and persistent sessions of the tenants
     * {@code sessionTenants}, in one statement: each an index-only count over its partial index.
     */
    public Usage countForConnect(Collection<String> connectionTenants, Collection<String> sessionTenants) {
        Map<String, Long> connections = new HashMap<>();
        Map<String, Long> sessions = new HashMap<>();
        jdbc.sql("""
                        SELECT true, tenant_id, count(*) FROM sessions
                        WHERE connected AND tenant_id IS NOT NULL AND tenant_id = ANY(:connections)
                        GROUP BY tenant_id
                        UNION ALL
                        SELECT false, tenant_id, count(*) FROM sessions
                        WHERE session_expiry_seconds > 0 AND tenant_id IS NOT NULL AND tenant_id = ANY(:sessions)
                        GROUP BY tenant_id""")
                .param("connections", connectionTenants.toArray(String[]::new))
                .param("sessions", sessionTenants.toArray(String[]::new))
                .query(rs -> {
                    (rs.getBoolean(1) ? connections : sessions).put(rs.getString(2), rs.getLong(3));
                });
        return new Usage(connections, sessions);
    }

    /** The sessions stored for those of {@code clientIds} in one of the tenants {@code ids}. */
    public Map<String, Held> heldSessions(Collection<String> clientIds, Collection<String> ids) {
        Map<String, Held> held = new HashMap<>();
        if (clientIds.isEmpty()) {
            return held;
        }
        jdbc.sql("SELECT client_id, connected, session_expiry_seconds > 0 FROM sessions"
                        + " WHERE client_id = ANY(:clients) AND tenant_id = ANY(:ids)")
                .param("clients", clientIds.toArray(String[]::new))
                .param("ids", ids.toArray(String[]::new))
                .query(rs -> {
                    held.put(rs.getString(1), new Held(rs.getBoolean(2), rs.getBoolean(3)));
                });
        return held;
    }

    /** The tenants of those of {@code clientIds} whose session is in one. */
    public Map<String, String> tenantsOf(Collection<String> clientIds) {
        Map<String, String> tenants = new HashMap<>();
        jdbc.sql("SELECT client_id, tenant_id FROM sessions WHERE client_id = ANY(:clients)"
                        + " AND tenant_id IS NOT NULL")
                .param("clients", clientIds.toArray(String[]::new))
                .query(rs -> {
                    tenants.put(rs.getString(1), rs.getString(2));
                });
        return tenants;
    }

    /**
     * The subscription quotas of those of {@code ids} that have one, their rows locked until the end of the
     * transaction in id order, as {@link #lockConnectQuotas} locks them (and before the sessions' rows, as CONNECT
     * locks them): SUBSCRIBEs of one tenant with a quota are admitted one transaction at a time.
     */
    public Map<String, Integer> lockSubscriptionQuotas(Collection<String> ids) {
        Map<String, Integer> quotas = new HashMap<>();
        jdbc.sql("SELECT id, max_subscriptions FROM tenants WHERE id = ANY(:ids) AND max_subscriptions IS NOT NULL"
                        + " ORDER BY id FOR NO KEY UPDATE")
                .param("ids", ids.toArray(String[]::new))
                .query(rs -> {
                    quotas.put(rs.getString(1), rs.getInt(2));
                });
        return quotas;
    }

    /** Per tenant of {@code ids} with subscriptions, how many its clients hold in total. */
    public Map<String, Long> countSubscriptions(Collection<String> ids) {
        Map<String, Long> counts = new HashMap<>();
        jdbc.sql("SELECT s.tenant_id, count(*) FROM sessions s JOIN subscriptions sub ON sub.client_id = s.client_id"
                        + " WHERE s.tenant_id IS NOT NULL AND s.tenant_id = ANY(:ids) GROUP BY s.tenant_id")
                .param("ids", ids.toArray(String[]::new))
                .query(rs -> {
                    counts.put(rs.getString(1), rs.getLong(2));
                });
        return counts;
    }

    /** Which of the (client, filter) pairs are stored already; each as {@code client + '\0' + filter}. */
    public Set<String> existingSubscriptions(List<String> clientIds, List<String> filters) {
        Set<String> existing = new HashSet<>();
        if (clientIds.isEmpty()) {
            return existing;
        }
        jdbc.sql("SELECT sub.client_id, sub.filter FROM subscriptions sub"
                        + " JOIN unnest(CAST(:clients AS text[]), CAST(:filters AS text[])) AS u(client_id, filter)"
                        + " ON sub.client_id = u.client_id AND sub.filter = u.filter")
                .param("clients", clientIds.toArray(String[]::new))
                .param("filters", filters.toArray(String[]::new))
                .query(rs -> {
                    existing.add(key(rs.getString(1), rs.getString(2)));
                });
        return existing;
    }

    static String key(String clientId, String filter) {
        return clientId + '\u0000' + filter;
    }
}
