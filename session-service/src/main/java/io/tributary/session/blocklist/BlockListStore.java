package io.tributary.session.blocklist;

import io.tributary.session.store.SqlArrays;
import io.tributary.session.store.StatementPipeline;
import io.tributary.session.store.Timestamps;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code block_list} table, and the live sessions an entry matches. */
@Repository
public class BlockListStore {

    /**
     * Key of the PostgreSQL advisory lock between CONNECTs (shared) and additions to the block list (exclusive): an
     * addition waits for the CONNECTs in progress and then finds their connections, and a CONNECT that starts later
     * sees the entry. Any constant unique to this use; "BLOCKLST" in ASCII.
     */
    private static final long LOCK_KEY = 0x424C4F434B4C5354L;

    private static final String COLUMNS =
            "id, client_id, username, host(ip_range) AS ip_host," + " masklen(ip_range) AS ip_bits, reason, created_at";
    /** Entries that could match a batch of CONNECTs: parameters the client ids, then the user names. */
    private static final String CANDIDATES =
            "client_id = ANY(?) OR username = ANY(?) OR ip_range IS NOT NULL" + " ORDER BY id";
    /** Live sessions read per query when looking for connections from blocked addresses. */
    private static final int LIVE_PAGE = 5_000;

    /** A live connection an entry matches. */
    public record LiveConnection(String clientId, String nodeId, long epoch, String remoteAddress) {}

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;

    public BlockListStore(JdbcClient jdbc, JdbcTemplate jdbcTemplate) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
    }

    /** The first entry matching a CONNECT (client id, user name, or an IP range containing {@code ip}), if any. */
    public Optional<BlockEntry> match(String clientId, String username, String ip) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM block_list WHERE client_id = :clientId"
                        + " OR (CAST(:username AS text) IS NOT NULL AND username = :username)"
                        + " OR (CAST(:ip AS inet) IS NOT NULL AND ip_range >>= CAST(:ip AS inet)) ORDER BY id LIMIT 1")
                .param("clientId", clientId)
                .param("username", username)
                .param("ip", ip)
                .query(BlockListStore::map)
                .optional();
    }

    /**
     * Every entry that could match one of a batch of CONNECTs, in id order, read in one query: those naming one of the
     * client ids or user names, and every address entry (there are few; transport nodes hold them all too).
     */
    public List<BlockEntry> candidates(Collection<String> clientIds, Collection<String> usernames) {
        StatementPipeline.Read<List<BlockEntry>> read = candidatesRead(clientIds, usernames);
        StatementPipeline.run(jdbcTemplate, read);
        return read.result();
    }

    /** {@link #candidates} as one read of a pipeline, to be sent with other statements. */
    public StatementPipeline.Read<List<BlockEntry>> candidatesRead(
            Collection<String> clientIds, Collection<String> usernames) {
        List<BlockEntry> entries = new ArrayList<>();
        return new StatementPipeline.Read<>(
                "SELECT " + COLUMNS + " FROM block_list WHERE " + CANDIDATES,
                new Object[] {SqlArrays.text(clientIds), names(usernames)},
                new StatementPipeline.RowsReader[] {
                    rows -> {
                        for (int n = 0; rows.next(); n++) {
                            entries.add(map(rows, n));
                        }
                    }
                },
                () -> entries);
    }

    /**
     * Takes the CONNECTs' shared lock ({@link #lockShared}) and then reads {@link #candidates}, in one round trip: the
     * read is a statement of its own, so it sees every entry committed before the lock was granted.
     */
    public List<BlockEntry> lockSharedAndReadCandidates(Collection<String> clientIds, Collection<String> usernames) {
        StatementPipeline.Read<List<BlockEntry>> read = candidatesRead(clientIds, usernames);
        StatementPipeline.run(
                jdbcTemplate,
                new StatementPipeline.Read<>(
                        "SELECT pg_advisory_xact_lock_shared(?)",
                        new Object[] {LOCK_KEY},
                        new StatementPipeline.RowsReader[] {locked -> {}},
                        () -> null),
                read);
        return read.result();
    }

    private static String[] names(Collection<String> usernames) {
        return usernames.stream().filter(Objects::nonNull).distinct().toArray(String[]::new);
    }

    /** Held by a CONNECT until its transaction ends. */
    public void lockShared() {
        jdbc.sql("SELECT pg_advisory_xact_lock_shared(:key)")
                .param("key", LOCK_KEY)
                .query((rs, n) -> 1)
                .list();
    }

    /** Held by an addition until its transaction ends: waits for CONNECTs in progress. */
    public void lockExclusive() {
        jdbc.sql("SELECT pg_advisory_xact_lock(:key)")
                .param("key", LOCK_KEY)
                .query((rs, n) -> 1)
                .list();
    }

    /** Inserts an entry; an existing one for the same value fails with a DuplicateKeyException. */
    public long insert(String clientId, String username, String ipRange, String reason, Instant now) {
        return jdbc.sql("INSERT INTO block_list (client_id, username, ip_range, reason, created_at)"
                        + " VALUES (:clientId, :username, CAST(:ip AS cidr), :reason, :now) RETURNING id")
                .param("clientId", clientId)
                .param("username", username)
                .param("ip", ipRange)
                .param("reason", reason)
                .param("now", Timestamps.toDb(now))
                .query(Long.class)
                .single();
    }

    public Optional<BlockEntry> find(long id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM block_list WHERE id = :id")
                .param("id", id)
                .query(BlockListStore::map)
                .optional();
    }

    public List<BlockEntry> page(long offset, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM block_list ORDER BY id LIMIT :limit OFFSET :offset")
                .param("limit", limit)
                .param("offset", offset)
                .query(BlockListStore::map)
                .list();
    }

    public long count() {
        return jdbc.sql("SELECT count(*) FROM block_list").query(Long.class).single();
    }

    public boolean delete(long id) {
        return jdbc.sql("DELETE FROM block_list WHERE id = :id").param("id", id).update() == 1;
    }

    /** The IP entries in CIDR notation. */
    public List<String> ipRanges() {
        return jdbc.sql("SELECT host(ip_range) || '/' || masklen(ip_range) FROM block_list WHERE ip_range IS NOT NULL"
                        + " ORDER BY id")
                .query(String.class)
                .list();
    }

    /**
     * Changes whenever the IP entries change: ids only grow, so a new entry raises the maximum and a removal lowers
     * the count, and a set with the same (count, maximum id) is the same set.
     */
    public String ipVersion() {
        return jdbc.sql("SELECT count(*) || '-' || COALESCE(max(id), 0) FROM block_list WHERE ip_range IS NOT NULL")
                .query(String.class)
                .single();
    }

    public List<LiveConnection> liveByClientId(String clientId) {
        return jdbc.sql("SELECT client_id, node_id, epoch, remote_address FROM sessions"
                        + " WHERE client_id = :clientId AND connected AND node_id IS NOT NULL")
                .param("clientId", clientId)
                .query(BlockListStore::live)
                .list();
    }

    public List<LiveConnection> liveByUsername(String username) {
        return jdbc.sql("SELECT client_id, node_id, epoch, remote_address FROM sessions"
                        + " WHERE username = :username AND connected AND node_id IS NOT NULL")
                .param("username", username)
                .query(BlockListStore::live)
                .list();
    }

    /**
     * Every live connection, in pages by client id (the remote address is text as the transport node sent it, so the
     * address is matched by the caller): memory stays bounded whatever the number of sessions.
     */
    public void forEachLive(Consumer<LiveConnection> visitor) {
        String after = "";
        while (true) {
            List<LiveConnection> page = jdbc.sql("SELECT client_id, node_id, epoch, remote_address FROM sessions"
                            + " WHERE connected AND node_id IS NOT NULL AND client_id > :after"
                            + " ORDER BY client_id LIMIT :limit")
                    .param("after", after)
                    .param("limit", LIVE_PAGE)
                    .query(BlockListStore::live)
                    .list();
            page.forEach(visitor);
            if (page.size() < LIVE_PAGE) {
                return;
            }
            after = page.get(page.size() - 1).clientId();
        }
    }

    private static LiveConnection live(ResultSet rs, int row) throws SQLException {
        return new LiveConnection(
                rs.getString("client_id"),
                rs.getString("node_id"),
                rs.getLong("epoch"),
                rs.getString("remote_address"));
    }

    private static BlockEntry map(ResultSet rs, int row) throws SQLException {
        String host = rs.getString("ip_host");
        String ip = host == null ? null : host + "/" + rs.getInt("ip_bits");
        return new BlockEntry(
                rs.getLong("id"),
                rs.getString("client_id"),
                rs.getString("username"),
                ip,
                rs.getString("reason"),
                Timestamps.read(rs, "created_at"));
    }
}
