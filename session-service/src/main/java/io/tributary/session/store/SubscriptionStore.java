package io.tributary.session.store;

import io.tributary.common.session.SubscribeApi;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code subscriptions} table. Callers hold the owning session's row lock. */
@Repository
public class SubscriptionStore {

    public static final String COLUMNS =
            "client_id, filter, qos, no_local, retain_as_published, retain_handling, subscription_id, created_at";

    public static final RowMapper<StoredSubscription> ROW = SubscriptionStore::map;

    /** A subscription (to be) removed by a bulk delete. */
    public record Removed(String clientId, String filter) {}

    private final JdbcClient jdbc;
    private final org.springframework.jdbc.core.JdbcTemplate jdbcTemplate;

    public SubscriptionStore(JdbcClient jdbc, org.springframework.jdbc.core.JdbcTemplate jdbcTemplate) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
    }

    public List<StoredSubscription> list(String clientId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM subscriptions WHERE client_id = :clientId ORDER BY filter")
                .param("clientId", clientId)
                .query(ROW)
                .list();
    }

    /** The subscriptions of these clients, by client id (clients without any are absent). */
    public Map<String, List<StoredSubscription>> listAllOf(Collection<String> clientIds) {
        Map<String, List<StoredSubscription>> byClient = new HashMap<>();
        if (clientIds.isEmpty()) {
            return byClient;
        }
        jdbc.sql("SELECT " + COLUMNS
                        + " FROM subscriptions WHERE client_id = ANY(:clientIds) ORDER BY client_id, filter")
                .param("clientIds", SqlArrays.text(clientIds))
                .query(ROW)
                .list()
                .forEach(s -> byClient.computeIfAbsent(s.clientId(), id -> new ArrayList<>())
                        .add(s));
        return byClient;
    }

    /**
     * Creates the subscription or replaces its options (a repeated SUBSCRIBE replaces the existing one).
     *
     * @return true when the subscription is new (MQTT 5 Retain Handling 1 sends retained messages only then)
     */
    public boolean upsert(String clientId, SubscribeApi.Subscription s, Instant now) {
        // xmax = 0 only for a freshly inserted row version, not for one written by ON CONFLICT DO UPDATE.
        return jdbc.sql("""
                INSERT INTO subscriptions (client_id, filter, qos, no_local, retain_as_published, retain_handling,
                    subscription_id, created_at)
                VALUES (:clientId, :filter, :qos, :noLocal, :retainAsPublished, :retainHandling, :subscriptionId,
                    :createdAt)
                ON CONFLICT (client_id, filter) DO UPDATE SET qos = EXCLUDED.qos, no_local = EXCLUDED.no_local,
                    retain_as_published = EXCLUDED.retain_as_published,
                    retain_handling = EXCLUDED.retain_handling, subscription_id = EXCLUDED.subscription_id
                RETURNING (xmax = 0) AS inserted""")
                .param("clientId", clientId)
                .param("filter", s.filter())
                .param("qos", (short) s.qos())
                .param("noLocal", s.noLocal())
                .param("retainAsPublished", s.retainAsPublished())
                .param("retainHandling", (short) s.retainHandling())
                .param("subscriptionId", s.subscriptionId(), java.sql.Types.INTEGER)
                .param("createdAt", Timestamps.toDb(now))
                .query(Boolean.class)
                .single();
    }

    /** One subscription of {@link #upsertAll}. */
    public record Upsert(String clientId, SubscribeApi.Subscription subscription) {}

    /**
     * {@link #upsert} for many subscriptions in one statement. The (client, filter) pairs must be distinct (one row
     * cannot be changed twice by one statement); callers split repeats into rounds.
     *
     * @return per upsert, in order, whether it created the subscription
     */
    public List<Boolean> upsertAll(List<Upsert> upserts, Instant now) {
        if (upserts.isEmpty()) {
            return List.of();
        }
        // One statement text whatever the batch size (columns as arrays, unnest()): prepared once per connection,
        // where a VALUES list per size was parsed and planned anew by PostgreSQL for every batch.
        int n = upserts.size();
        String[] clientIds = new String[n];
        String[] filters = new String[n];
        Short[] qos = new Short[n];
        Boolean[] noLocal = new Boolean[n];
        Boolean[] retainAsPublished = new Boolean[n];
        Short[] retainHandling = new Short[n];
        Integer[] subscriptionIds = new Integer[n];
        for (int i = 0; i < n; i++) {
            SubscribeApi.Subscription s = upserts.get(i).subscription();
            clientIds[i] = upserts.get(i).clientId();
            filters[i] = s.filter();
            qos[i] = (short) s.qos();
            noLocal[i] = s.noLocal();
            retainAsPublished[i] = s.retainAsPublished();
            retainHandling[i] = (short) s.retainHandling();
            subscriptionIds[i] = s.subscriptionId();
        }
        String sql = """
                INSERT INTO subscriptions (client_id, filter, qos, no_local, retain_as_published, retain_handling,
                    subscription_id, created_at)
                SELECT u.client_id, u.filter, u.qos, u.no_local, u.retain_as_published, u.retain_handling,
                    u.subscription_id, ?
                FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS int2[]), CAST(? AS bool[]),
                    CAST(? AS bool[]), CAST(? AS int2[]), CAST(? AS int4[]))
                    AS u(client_id, filter, qos, no_local, retain_as_published, retain_handling, subscription_id)
                ON CONFLICT (client_id, filter) DO UPDATE SET qos = EXCLUDED.qos, no_local = EXCLUDED.no_local,
                    retain_as_published = EXCLUDED.retain_as_published,
                    retain_handling = EXCLUDED.retain_handling, subscription_id = EXCLUDED.subscription_id
                RETURNING client_id, filter, (xmax = 0) AS inserted""";
        Object[] args = {
            java.sql.Timestamp.from(now),
            clientIds,
            filters,
            qos,
            noLocal,
            retainAsPublished,
            retainHandling,
            subscriptionIds
        };
        Map<String, Boolean> inserted = new HashMap<>();
        jdbcTemplate.query(
                sql,
                rs -> {
                    inserted.put(
                            rs.getString("client_id") + '\u0000' + rs.getString("filter"), rs.getBoolean("inserted"));
                },
                args);
        return upserts.stream()
                .map(u -> inserted.getOrDefault(
                        u.clientId() + '\u0000' + u.subscription().filter(), false))
                .toList();
    }

    /** @return true when a subscription existed */
    public boolean delete(String clientId, String filter) {
        return jdbc.sql("DELETE FROM subscriptions WHERE client_id = :clientId AND filter = :filter")
                        .param("clientId", clientId)
                        .param("filter", filter)
                        .update()
                > 0;
    }

    /**
     * Deletes these (client, filter) subscriptions in one statement, whatever their number: the pairs go as two arrays
     * through {@code unnest()}, so the statement text is the same for every batch and is prepared once per
     * connection. Pairs that do not exist are ignored; a pair given twice is deleted once.
     *
     * @return the pairs that existed and were deleted
     */
    public java.util.Set<Removed> deleteEach(Collection<Removed> pairs) {
        if (pairs.isEmpty()) {
            return java.util.Set.of();
        }
        String[] clientIds = new String[pairs.size()];
        String[] filters = new String[pairs.size()];
        int i = 0;
        for (Removed pair : pairs) {
            clientIds[i] = pair.clientId();
            filters[i++] = pair.filter();
        }
        java.util.Set<Removed> deleted = new java.util.HashSet<>();
        jdbcTemplate.query(
                """
                DELETE FROM subscriptions s
                USING unnest(CAST(? AS text[]), CAST(? AS text[])) AS d(client_id, filter)
                WHERE s.client_id = d.client_id AND s.filter = d.filter
                RETURNING s.client_id, s.filter""",
                rs -> {
                    deleted.add(new Removed(rs.getString("client_id"), rs.getString("filter")));
                },
                clientIds,
                filters);
        return deleted;
    }

    /** Deletes every subscription of the client. @return their filters */
    public List<String> deleteAll(String clientId) {
        return jdbc.sql("DELETE FROM subscriptions WHERE client_id = :clientId RETURNING filter")
                .param("clientId", clientId)
                .query(String.class)
                .list();
    }

    /** Deletes every subscription of these clients. */
    public List<Removed> deleteAllOf(Collection<String> clientIds) {
        if (clientIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("DELETE FROM subscriptions WHERE client_id = ANY(:clientIds) RETURNING client_id, filter")
                .param("clientIds", SqlArrays.text(clientIds))
                .query((rs, n) -> new Removed(rs.getString("client_id"), rs.getString("filter")))
                .list();
    }

    private static StoredSubscription map(ResultSet rs, int rowNum) throws SQLException {
        return new StoredSubscription(
                rs.getString("client_id"),
                rs.getString("filter"),
                rs.getShort("qos"),
                rs.getBoolean("no_local"),
                rs.getBoolean("retain_as_published"),
                rs.getShort("retain_handling"),
                (Integer) rs.getObject("subscription_id"),
                Timestamps.read(rs, "created_at"));
    }
}
