package io.tributary.session.will;

import io.tributary.common.kafka.PublishProperties;
import io.tributary.common.session.ConnectApi;
import io.tributary.session.store.SessionStore;
import io.tributary.session.store.SqlArrays;
import io.tributary.session.store.StatementPipeline;
import io.tributary.session.store.Timestamps;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code wills} table. Changes for one client are made under that client's session row lock (CONNECT,
 * disconnect, liveness), except the publisher's, which locks due will rows themselves with SKIP LOCKED.
 */
@Repository
public class WillStore {

    private static final String COLUMNS = "client_id, epoch, node_id, protocol_version, topic, payload, qos, retain,"
            + " delay_seconds, properties::text AS properties, will_publish_at";

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;
    private final JsonMapper json;

    public WillStore(JdbcClient jdbc, JdbcTemplate jdbcTemplate, JsonMapper json) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
        this.json = json;
    }

    /** The will a new connection leaves ({@code will} null: none), for {@link #storeAll}. */
    public record NewConnection(
            String clientId, long epoch, String nodeId, int protocolVersion, ConnectApi.Will will) {}

    /**
     * The wills of these connecting clients' earlier connections, deleted: a pending one is cancelled (the client came
     * back) or, if already due, returned for publishing. Sent with {@link SessionStore#lockOrCreateForConnect}'s lock,
     * in its round trip, so it runs under the row locks; only where the session row is in the connecting client's
     * namespace (its tenant, or both global), as {@code ConnectService} admits it: a CONNECT refused because another
     * namespace holds the client id leaves that session's will alone. A client whose row vanished before the lock
     * (the caller asks again for it) keeps its will until then.
     *
     * @return by client id, the earlier connection's will where one was pending
     */
    public StatementPipeline.Read<Map<String, StoredWill>> takeEarlier(List<SessionStore.Connected> connecting) {
        Map<String, StoredWill> pending = new HashMap<>();
        String[] clientIds = new String[connecting.size()];
        String[] tenants = new String[connecting.size()];
        for (int i = 0; i < clientIds.length; i++) {
            clientIds[i] = connecting.get(i).clientId();
            tenants[i] = connecting.get(i).tenant();
        }
        return new StatementPipeline.Read<>(
                """
                DELETE FROM wills w USING sessions s,
                        unnest(CAST(? AS text[]), CAST(? AS text[])) AS c(client_id, tenant_id)
                    WHERE w.client_id = c.client_id AND s.client_id = c.client_id
                        AND s.tenant_id IS NOT DISTINCT FROM c.tenant_id
                    RETURNING w.client_id, w.epoch, w.node_id, w.protocol_version, w.topic, w.payload, w.qos,
                        w.retain, w.delay_seconds, w.properties::text AS properties, w.will_publish_at""",
                new Object[] {clientIds, tenants},
                new StatementPipeline.RowsReader[] {
                    rows -> {
                        for (int r = 0; rows.next(); r++) {
                            StoredWill w = map(rows, r);
                            if (w.publishAt() != null) {
                                pending.put(w.clientId(), w);
                            }
                        }
                    }
                },
                () -> pending);
    }

    /**
     * The wills of new connections (distinct clients, {@code will} null: none), in one JDBC batch of INSERTs; after
     * {@link #takeEarlier} removed the earlier ones.
     */
    public void storeAll(List<NewConnection> connections) {
        List<NewConnection> withWill =
                connections.stream().filter(c -> c.will() != null).toList();
        if (!withWill.isEmpty()) {
            jdbcTemplate.batchUpdate("""
                    INSERT INTO wills (client_id, epoch, node_id, protocol_version, topic, payload, qos, retain,
                        delay_seconds, properties)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb))""", withWill, withWill.size(), (ps, c) -> {
                ConnectApi.Will will = c.will();
                ps.setString(1, c.clientId());
                ps.setLong(2, c.epoch());
                ps.setString(3, c.nodeId());
                ps.setInt(4, c.protocolVersion());
                ps.setString(5, will.topic());
                ps.setBytes(6, will.payload());
                ps.setInt(7, will.qos());
                ps.setBoolean(8, will.retain());
                ps.setLong(9, will.delaySeconds());
                ps.setString(10, will.properties() == null ? null : json.writeValueAsString(will.properties()));
            });
        }
    }

    /** Will Delay Interval of the will left by the connection of {@code epoch}; empty when it left none. */
    public Optional<Long> delayOf(String clientId, long epoch) {
        return jdbc.sql("SELECT delay_seconds FROM wills WHERE client_id = :clientId AND epoch = :epoch")
                .param("clientId", clientId)
                .param("epoch", epoch)
                .query(Long.class)
                .optional();
    }

    /** The connection of {@code epoch} ended abnormally: its will becomes due at {@code publishAt}. */
    public void schedule(String clientId, long epoch, Instant publishAt) {
        jdbc.sql("UPDATE wills SET will_publish_at = :at WHERE client_id = :clientId AND epoch = :epoch")
                .param("at", Timestamps.toDb(publishAt))
                .param("clientId", clientId)
                .param("epoch", epoch)
                .update();
    }

    /**
     * Locks up to {@code limit} wills due at {@code now}, earliest first, through the partial index on
     * {@code will_publish_at}. Rows locked by another instance's publisher or by a CONNECT of the client are
     * skipped, so each due will is taken by one transaction.
     */
    public List<StoredWill> lockDue(Instant now, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + """
                 FROM wills WHERE will_publish_at <= :now
                ORDER BY will_publish_at
                LIMIT :limit
                FOR UPDATE SKIP LOCKED""")
                .param("now", Timestamps.toDb(now))
                .param("limit", limit)
                .query(this::map)
                .list();
    }

    public void deleteAll(Collection<String> clientIds) {
        if (clientIds.isEmpty()) {
            return;
        }
        jdbc.sql("DELETE FROM wills WHERE client_id = ANY(:clientIds)")
                .param("clientIds", SqlArrays.text(clientIds))
                .update();
    }

    private StoredWill map(ResultSet rs, int rowNum) throws SQLException {
        String properties = rs.getString("properties");
        return new StoredWill(
                rs.getString("client_id"),
                rs.getLong("epoch"),
                rs.getString("node_id"),
                rs.getInt("protocol_version"),
                rs.getString("topic"),
                rs.getBytes("payload"),
                rs.getInt("qos"),
                rs.getBoolean("retain"),
                rs.getLong("delay_seconds"),
                properties == null ? null : json.readValue(properties, PublishProperties.class),
                Timestamps.read(rs, "will_publish_at"));
    }
}
