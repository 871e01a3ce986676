package io.tributary.session.search;

import io.tributary.session.store.SessionRecord;
import io.tributary.session.store.SessionStore;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Keyset pages of sessions in byte order of the client id. Each criterion is a range or an equality on one of the
 * indexes of migration V8, so a page reads about {@code limit} index entries however many sessions there are; no
 * page count is taken (a count would visit every matching row).
 */
@Repository
public class SessionSearch {

    /** What to look for; null or empty fields do not restrict. */
    public record Criteria(String clientIdPrefix, String username, String nodeId, Boolean connected) {}

    private final JdbcClient jdbc;

    public SessionSearch(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Up to {@code limit} sessions matching {@code criteria} whose client id sorts after {@code after} (null: from the start). */
    public List<SessionRecord> page(Criteria criteria, String after, int limit) {
        List<String> conditions = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT " + SessionStore.COLUMNS + " FROM sessions");
        if (notEmpty(criteria.clientIdPrefix())) {
            conditions.add("client_id COLLATE \"C\" LIKE :pattern");
        }
        if (notEmpty(criteria.username())) {
            conditions.add("username COLLATE \"C\" = :username");
        }
        if (notEmpty(criteria.nodeId())) {
            conditions.add("node_id = :nodeId");
        }
        if (criteria.connected() != null) {
            conditions.add("connected = :connected");
        }
        if (after != null) {
            conditions.add("client_id COLLATE \"C\" > :after");
        }
        if (!conditions.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", conditions));
        }
        sql.append(" ORDER BY client_id COLLATE \"C\" LIMIT :limit");
        JdbcClient.StatementSpec spec = jdbc.sql(sql.toString()).param("limit", limit);
        if (notEmpty(criteria.clientIdPrefix())) {
            spec = spec.param("pattern", LikePattern.startingWith(criteria.clientIdPrefix()));
        }
        if (notEmpty(criteria.username())) {
            spec = spec.param("username", criteria.username());
        }
        if (notEmpty(criteria.nodeId())) {
            spec = spec.param("nodeId", criteria.nodeId());
        }
        if (criteria.connected() != null) {
            spec = spec.param("connected", criteria.connected());
        }
        if (after != null) {
            spec = spec.param("after", after);
        }
        return spec.query(SessionStore.ROW).list();
    }

    static boolean notEmpty(String s) {
        return s != null && !s.isEmpty();
    }
}
