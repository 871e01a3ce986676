package io.tributary.session.search;

import io.tributary.session.store.StoredSubscription;
import io.tributary.session.store.SubscriptionStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Keyset pages of subscriptions in byte order of (filter, client id), through the index of migration V8: a filter
 * prefix such as {@code $share/group/} lists a shared group's members, an exact filter who holds it.
 */
@Repository
public class SubscriptionSearch {

    /** A subscription with the state of the session holding it. */
    public record Held(StoredSubscription subscription, boolean connected, String nodeId) {}

    private final JdbcClient jdbc;

    public SubscriptionSearch(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Up to {@code limit} subscriptions whose filter starts with {@code filterPrefix} (null: any) of {@code clientId}
     * (null: anyone), after the key ({@code afterFilter}, {@code afterClientId}) (null: from the start).
     */
    public List<Held> page(String filterPrefix, String clientId, String afterFilter, String afterClientId, int limit) {
        List<String> conditions = new ArrayList<>();
        if (SessionSearch.notEmpty(filterPrefix)) {
            conditions.add("s.filter COLLATE \"C\" LIKE :pattern");
        }
        if (SessionSearch.notEmpty(clientId)) {
            conditions.add("s.client_id = :clientId");
        }
        if (afterFilter != null) {
            conditions.add("(s.filter COLLATE \"C\", s.client_id COLLATE \"C\") > (:afterFilter, :afterClientId)");
        }
        String columns = "s." + SubscriptionStore.COLUMNS.replace(", ", ", s.");
        String sql = "SELECT " + columns + ", ss.connected AS session_connected, ss.node_id AS session_node_id"
                + " FROM subscriptions s JOIN sessions ss ON ss.client_id = s.client_id"
                + (conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions))
                + " ORDER BY s.filter COLLATE \"C\", s.client_id COLLATE \"C\" LIMIT :limit";
        JdbcClient.StatementSpec spec = jdbc.sql(sql).param("limit", limit);
        if (SessionSearch.notEmpty(filterPrefix)) {
            spec = spec.param("pattern", LikePattern.startingWith(filterPrefix));
        }
        if (SessionSearch.notEmpty(clientId)) {
            spec = spec.param("clientId", clientId);
        }
        if (afterFilter != null) {
            spec = spec.param("afterFilter", afterFilter).param("afterClientId", afterClientId);
        }
        return spec.query(SubscriptionSearch::map).list();
    }

    private static Held map(ResultSet rs, int row) throws SQLException {
        return new Held(
                SubscriptionStore.ROW.mapRow(rs, row),
                rs.getBoolean("session_connected"),
                rs.getString("session_node_id"));
    }
}
