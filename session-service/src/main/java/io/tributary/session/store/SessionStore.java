package io.tributary.session.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code sessions} table. Every method that changes a session expects the caller to hold the row lock taken by
 * {@link #lock(String)} in the same transaction.
 */
@Repository
public class SessionStore {

    /** The columns {@link #ROW} reads, for queries outside this class (the console's search). */
    public static final String COLUMNS = "client_id, node_id, epoch, connected, clean_start, session_expiry_seconds,"
            + " protocol_version, keep_alive, remote_address, username, connected_at, disconnected_at, expires_at";

    public static final RowMapper<SessionRecord> ROW = SessionStore::map;

    /** Client id and epoch of a session picked by the expiry sweep. */
    public record ExpiredSession(String clientId, long epoch) {}

    /** What a CONNECT stores about the new connection ({@link #markAllConnected}). */
    public record Connection(
            String nodeId,
            long epoch,
            boolean cleanStart,
            long sessionExpirySeconds,
            int protocolVersion,
            int keepAliveSeconds,
            String remoteAddress,
            String username,
            Instant connectedAt,
            String nodeIncarnation) {}

    /** A connected session locked because its node incarnation was declared dead. */
    public record OnDeadNode(SessionRecord session, String nodeIncarnation) {}

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;

    public SessionStore(JdbcClient jdbc, JdbcTemplate jdbcTemplate) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
    }

    /**
     * A row locked for a CONNECT by {@link #lockOrCreateForConnect}, with the epoch drawn for the new connection; for a
     * client that had no row, {@code row} is the empty placeholder a new session starts from ({@link #placeholder}).
     * {@code tenant} is the namespace the session was created in (null: global); for a new row, the connecting one.
     */
    public record LockedForConnect(SessionRecord row, boolean created, long newEpoch, String tenant) {}

    /**
     * Locks the rows of these clients for their CONNECTs and draws each a new connection epoch from the
     * {@code session_epochs} sequence, in one round trip ({@link StatementPipeline}). A client that has no row gets
     * one, written with its new connection already (all but the epoch, 0 until {@link #markAllConnected}): the
     * update that records the epoch then changes no indexed column and stays a heap-only (HOT) update, instead of a
     * second version of the row in every index.
     *
     * <p>New rows are inserted in client id order, and rows are locked in that order, the order every multi-row
     * locker uses, so two batches never wait for each other in a cycle; an inserted row is never visible to others
     * before the transaction commits. Epochs are drawn only once all rows are locked (the {@code MATERIALIZED} step
     * finishes first): the previous holder of a lock drew its epoch before, so the epochs of one client increase in
     * the order its CONNECTs commit, and stay above those of any deleted earlier session of the client — unique over
     * all clients and session-service instances. The sequence is not rolled back with the transaction: an aborted
     * CONNECT leaves a gap, never a reuse.
     *
     * @param connecting distinct clients and their new connections (the epochs in them are ignored)
     * @param connectedAt when they connected
     * @param alongside other stores' statements for the same clients, sent in the same round trip after the lock (so
     *     under it): the CONNECT's work that does not depend on what the lock found
     * @return by client id; a client whose row vanished between the insert and the lock (an expiry sweep or a
     *         disconnect with expiry 0 committed in between) is missing, and the caller asks again
     */
    public Map<String, LockedForConnect> lockOrCreateForConnect(
            List<Connected> connecting, Instant connectedAt, StatementPipeline.Read<?>... alongside) {
        Set<String> created = new HashSet<>();
        Map<String, LockedForConnect> locked = new HashMap<>();
        Object[] parameters = connectParameters(connecting, connectedAt);
        StatementPipeline.RowsReader readInserted = inserted -> {
            while (inserted.next()) {
                created.add(inserted.getString(1));
            }
        };
        StatementPipeline.RowsReader readLocked = rows -> {
            for (int r = 0; rows.next(); r++) {
                String clientId = rows.getString("client_id");
                boolean isNew = created.contains(clientId);
                locked.put(
                        clientId,
                        new LockedForConnect(
                                isNew ? placeholder(clientId) : map(rows, r),
                                isNew,
                                rows.getLong("new_epoch"),
                                rows.getString("tenant_id")));
            }
        };
        StatementPipeline.Read<?>[] reads = new StatementPipeline.Read<?>[alongside.length + 1];
        reads[0] = new StatementPipeline.Read<>(
                """
                INSERT INTO sessions (client_id, epoch, node_id, connected, clean_start, session_expiry_seconds,
                        protocol_version, keep_alive, remote_address, username, connected_at, node_incarnation,
                        credential_id, tenant_id)
                    SELECT c.client_id, 0, c.node_id, true, c.clean_start, c.session_expiry_seconds,
                        c.protocol_version, c.keep_alive, c.remote_address, c.username, ?, c.node_incarnation,
                        c.credential_id, c.tenant_id
                    FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS boolean[]), CAST(? AS bigint[]),
                        CAST(? AS integer[]), CAST(? AS integer[]), CAST(? AS text[]), CAST(? AS text[]),
                        CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS text[]))
                        AS c(client_id, node_id, clean_start, session_expiry_seconds, protocol_version, keep_alive,
                            remote_address, username, node_incarnation, credential_id, tenant_id)
                    ORDER BY c.client_id
                    ON CONFLICT (client_id) DO NOTHING
                    RETURNING client_id;
                WITH locked AS MATERIALIZED (
                    SELECT %s, tenant_id FROM sessions WHERE client_id = ANY(?) ORDER BY client_id FOR UPDATE)
                SELECT locked.*, nextval('session_epochs') AS new_epoch FROM locked""".formatted(COLUMNS),
                parameters,
                new StatementPipeline.RowsReader[] {readInserted, readLocked},
                () -> locked);
        System.arraycopy(alongside, 0, reads, 1, alongside.length);
        StatementPipeline.run(jdbcTemplate, reads);
        return locked;
    }

    /**
     * The parameters of {@link #lockOrCreateForConnect}'s statements, in their order: the connect time, one array
     * per column of the new rows (for {@code unnest}, one element per client), then the client ids again for the lock.
     */
    private static Object[] connectParameters(List<Connected> connecting, Instant connectedAt) {
        int n = connecting.size();
        String[] ids = new String[n];
        String[] nodes = new String[n];
        Boolean[] cleanStarts = new Boolean[n];
        Long[] expiries = new Long[n];
        Integer[] protocols = new Integer[n];
        Integer[] keepAlives = new Integer[n];
        String[] addresses = new String[n];
        String[] usernames = new String[n];
        String[] incarnations = new String[n];
        Long[] credentials = new Long[n];
        String[] tenants = new String[n];
        for (int i = 0; i < n; i++) {
            Connected row = connecting.get(i);
            Connection c = row.connection();
            ids[i] = row.clientId();
            nodes[i] = c.nodeId();
            cleanStarts[i] = c.cleanStart();
            expiries[i] = c.sessionExpirySeconds();
            protocols[i] = c.protocolVersion();
            keepAlives[i] = c.keepAliveSeconds();
            addresses[i] = c.remoteAddress();
            usernames[i] = c.username();
            incarnations[i] = c.nodeIncarnation();
            credentials[i] = row.credentialId();
            tenants[i] = row.tenant();
        }
        return new Object[] {
            Timestamps.toDb(connectedAt),
            ids,
            nodes,
            cleanStarts,
            expiries,
            protocols,
            keepAlives,
            addresses,
            usernames,
            incarnations,
            credentials,
            tenants,
            ids
        };
    }

    /** The row of a client without a session, as a CONNECT finds it: epoch 0, below every drawn epoch; offline. */
    static SessionRecord placeholder(String clientId) {
        return new SessionRecord(clientId, null, 0, false, true, 0, 0, 0, null, null, null, null, null);
    }

    /** Locks the rows of these clients in client id order, until the end of the transaction; absent ones are missing. */
    public Map<String, SessionRecord> lockAll(Collection<String> clientIds) {
        Map<String, SessionRecord> rows = new HashMap<>();
        if (clientIds.isEmpty()) {
            return rows;
        }
        jdbc.sql("SELECT " + COLUMNS + " FROM sessions WHERE client_id = ANY(:clientIds) ORDER BY client_id FOR UPDATE")
                .param("clientIds", SqlArrays.text(clientIds))
                .query(ROW)
                .list()
                .forEach(row -> rows.put(row.clientId(), row));
        return rows;
    }

    /**
     * Records the clients' new connections, and which credential each used (null: anonymous), in one round trip;
     * under the row locks.
     */
    public void markAllConnected(List<Connected> connected) {
        jdbcTemplate.batchUpdate("""
                UPDATE sessions SET node_id = ?, epoch = ?, connected = true, clean_start = ?,
                    session_expiry_seconds = ?, protocol_version = ?, keep_alive = ?, remote_address = ?,
                    username = ?, connected_at = ?, disconnected_at = NULL, expires_at = NULL, node_incarnation = ?,
                    credential_id = ?, tenant_id = ?
                WHERE client_id = ?""", connected, connected.size(), (ps, row) -> {
            Connection c = row.connection();
            ps.setString(1, c.nodeId());
            ps.setLong(2, c.epoch());
            ps.setBoolean(3, c.cleanStart());
            ps.setLong(4, c.sessionExpirySeconds());
            ps.setInt(5, c.protocolVersion());
            ps.setInt(6, c.keepAliveSeconds());
            ps.setString(7, c.remoteAddress());
            ps.setString(8, c.username());
            ps.setObject(9, Timestamps.toDb(c.connectedAt()));
            ps.setString(10, c.nodeIncarnation());
            ps.setObject(11, row.credentialId(), java.sql.Types.BIGINT);
            ps.setString(12, row.tenant());
            ps.setString(13, row.clientId());
        });
    }

    /**
     * A connection to record with {@link #markAllConnected}; {@code credentialId} null for anonymous, {@code tenant}
     * null for the global namespace.
     */
    public record Connected(String clientId, Connection connection, Long credentialId, String tenant) {}

    /** Locks the client's row until the end of the transaction; empty when it has no session. */
    public Optional<SessionRecord> lock(String clientId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM sessions WHERE client_id = :clientId FOR UPDATE")
                .param("clientId", clientId)
                .query(ROW)
                .optional();
    }

    public Optional<SessionRecord> find(String clientId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM sessions WHERE client_id = :clientId")
                .param("clientId", clientId)
                .query(ROW)
                .optional();
    }

    /** A session going offline, for {@link #markAllDisconnected}; {@code expiresAt} null: kept forever. */
    public record Disconnected(String clientId, long sessionExpirySeconds, Instant disconnectedAt, Instant expiresAt) {}

    /** The sessions go offline and are kept until their {@code expiresAt} (null: forever), in one round trip. */
    public void markAllDisconnected(List<Disconnected> offline) {
        if (offline.isEmpty()) {
            return;
        }
        jdbcTemplate.batchUpdate("""
                UPDATE sessions SET node_id = NULL, node_incarnation = NULL, connected = false,
                    session_expiry_seconds = ?, disconnected_at = ?, expires_at = ?
                WHERE client_id = ?""", offline, offline.size(), (ps, d) -> {
            ps.setLong(1, d.sessionExpirySeconds());
            ps.setObject(2, Timestamps.toDb(d.disconnectedAt()));
            ps.setObject(3, Timestamps.toDb(d.expiresAt()), java.sql.Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setString(4, d.clientId());
        });
    }

    /** Deletes the session; its subscriptions go with it (ON DELETE CASCADE). */
    public void delete(String clientId) {
        jdbc.sql("DELETE FROM sessions WHERE client_id = :clientId")
                .param("clientId", clientId)
                .update();
    }

    public void deleteAll(Collection<String> clientIds) {
        if (clientIds.isEmpty()) {
            return;
        }
        jdbc.sql("DELETE FROM sessions WHERE client_id = ANY(:clientIds)")
                .param("clientIds", SqlArrays.text(clientIds))
                .update();
    }

    /**
     * Locks up to {@code limit} disconnected sessions whose expiry has passed, oldest first, through the partial
     * index on {@code expires_at}. Rows locked by a concurrent CONNECT or sweep are skipped, not waited for.
     */
    public List<ExpiredSession> lockExpired(Instant now, int limit) {
        return jdbc.sql("""
                SELECT client_id, epoch FROM sessions
                WHERE expires_at < :now AND NOT connected
                ORDER BY expires_at
                LIMIT :limit
                FOR UPDATE SKIP LOCKED""")
                .param("now", Timestamps.toDb(now))
                .param("limit", limit)
                .query((rs, n) -> new ExpiredSession(rs.getString("client_id"), rs.getLong("epoch")))
                .list();
    }

    /**
     * Locks up to {@code limit} sessions still marked connected on a node incarnation that was declared dead. The
     * join keeps to the incarnation: a restarted node with the same id is another incarnation, and its sessions are
     * not matched. Rows locked by a concurrent CONNECT or detector are skipped (the CONNECT moves the session
     * anyway); a row changed and committed meanwhile is re-checked against the condition before it is returned.
     */
    public List<OnDeadNode> lockConnectedOnDeadNodes(int limit) {
        return jdbc.sql("SELECT " + prefixed("s.") + """
                , s.node_incarnation FROM sessions s
                JOIN transport_nodes n ON n.node_id = s.node_id AND n.incarnation = s.node_incarnation
                WHERE s.connected AND n.dead_at IS NOT NULL
                LIMIT :limit
                FOR UPDATE OF s SKIP LOCKED""")
                .param("limit", limit)
                .query((rs, n) -> new OnDeadNode(map(rs, n), rs.getString("node_incarnation")))
                .list();
    }

    private static String prefixed(String alias) {
        return alias + COLUMNS.replace(", ", ", " + alias);
    }

    /** A page of sessions ordered by client id; {@code connected} null = all. */
    public List<SessionRecord> page(Boolean connected, long offset, int limit) {
        String where = connected == null ? "" : " WHERE connected = :connected";
        JdbcClient.StatementSpec spec = jdbc.sql("SELECT " + COLUMNS + " FROM sessions" + where
                        + " ORDER BY client_id LIMIT :limit OFFSET :offset")
                .param("limit", limit)
                .param("offset", offset);
        if (connected != null) {
            spec = spec.param("connected", connected);
        }
        return spec.query(ROW).list();
    }

    public long count(Boolean connected) {
        if (connected == null) {
            return jdbc.sql("SELECT count(*) FROM sessions").query(Long.class).single();
        }
        return jdbc.sql("SELECT count(*) FROM sessions WHERE connected = :connected")
                .param("connected", connected)
                .query(Long.class)
                .single();
    }

    private static SessionRecord map(ResultSet rs, int rowNum) throws SQLException {
        return new SessionRecord(
                rs.getString("client_id"),
                rs.getString("node_id"),
                rs.getLong("epoch"),
                rs.getBoolean("connected"),
                rs.getBoolean("clean_start"),
                rs.getLong("session_expiry_seconds"),
                rs.getInt("protocol_version"),
                rs.getInt("keep_alive"),
                rs.getString("remote_address"),
                rs.getString("username"),
                Timestamps.read(rs, "connected_at"),
                Timestamps.read(rs, "disconnected_at"),
                Timestamps.read(rs, "expires_at"));
    }
}
