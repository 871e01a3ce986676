package io.tributary.session.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.List;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import io.tributary.common.session.SessionApi;

/** The {@code subscriptions} table. Callers hold the owning session's row lock. */
@Repository
public class SubscriptionStore {

    public static final String COLUMNS =
            "client_id, filter, qos, no_local, retain_as_published, retain_handling, subscription_id, created_at";

    public static final RowMapper<StoredSubscription> ROW = SubscriptionStore::map;

    /** A subscription removed by a bulk delete. */
    public record Removed(String clientId, String filter) {
    }

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
        jdbc.sql("SELECT " + COLUMNS + " FROM subscriptions WHERE client_id IN (:clientIds) ORDER BY client_id, filter")
                .param("clientIds", clientIds)
                .query(ROW)
                .list()
                .forEach(s -> byClient.computeIfAbsent(s.clientId(), id -> new ArrayList<>()).add(s));
        return byClient;
    }

    /**
     * Creates the subscription or replaces its options (a repeated SUBSCRIBE replaces the existing one).
     *
     * @return true when the subscription is new (MQTT 5 Retain Handling 1 sends retained messages only then)
     */
    public boolean upsert(String clientId, SessionApi.Subscription s, Instant now) {
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
    public record Upsert(String clientId, SessionApi.Subscription subscription) {
    }

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
        StringBuilder sql = new StringBuilder("""
                INSERT INTO subscriptions (client_id, filter, qos, no_local, retain_as_published, retain_handling,
                    subscription_id, created_at) VALUES """);
        List<Object> args = new ArrayList<>(upserts.size() * 8);
        java.sql.Timestamp created = java.sql.Timestamp.from(now);
        for (int i = 0; i < upserts.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?)");
            SessionApi.Subscription s = upserts.get(i).subscription();
            args.add(upserts.get(i).clientId());
            args.add(s.filter());
            args.add((short) s.qos());
            args.add(s.noLocal());
            args.add(s.retainAsPublished());
            args.add((short) s.retainHandling());
            args.add(new org.springframework.jdbc.core.SqlParameterValue(java.sql.Types.INTEGER, s.subscriptionId()));
            args.add(created);
        }
        sql.append("""
                 ON CONFLICT (client_id, filter) DO UPDATE SET qos = EXCLUDED.qos, no_local = EXCLUDED.no_local,
                    retain_as_published = EXCLUDED.retain_as_published,
                    retain_handling = EXCLUDED.retain_handling, subscription_id = EXCLUDED.subscription_id
                RETURNING client_id, filter, (xmax = 0) AS inserted""");
        Map<String, Boolean> inserted = new HashMap<>();
        jdbcTemplate.query(sql.toString(), rs -> {
            inserted.put(rs.getString("client_id") + '\u0000' + rs.getString("filter"), rs.getBoolean("inserted"));
        }, args.toArray());
        return upserts.stream()
                .map(u -> inserted.getOrDefault(u.clientId() + '\u0000' + u.subscription().filter(), false))
                .toList();
    }

    /** @return true when a subscription existed */
    public boolean delete(String clientId, String filter) {
        return jdbc.sql("DELETE FROM subscriptions WHERE client_id = :clientId AND filter = :filter")
                .param("clientId", clientId)
                .param("filter", filter)
                .update() > 0;
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
        return jdbc.sql("DELETE FROM subscriptions WHERE client_id IN (:clientIds) RETURNING client_id, filter")
                .param("clientIds", clientIds)
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
