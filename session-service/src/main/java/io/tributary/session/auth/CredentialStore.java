package io.tributary.session.auth;

import io.tributary.session.store.SqlArrays;
import io.tributary.session.store.StatementPipeline;
import io.tributary.session.store.Timestamps;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code credentials} table, and the link from live sessions to the credential they authenticated with. */
@Repository
public class CredentialStore {

    private static final String COLUMNS = "id, username, client_id, password_hash, blocked, publish_acl,"
            + " subscribe_acl, description, version, created_at, updated_at, certificate_cn, tenant_id";
    private static final RowMapper<Credential> ROW = CredentialStore::map;

    /** Which identity another namespace holds ({@code username}, {@code clientId}, {@code certificateCn}). */
    public record IdentityHolder(String identity, String tenant) {}

    /** A live connection that authenticated with a credential. */
    public record LiveConnection(String clientId, String nodeId, long epoch) {}

    /** What an admin sets; {@code passwordHash} null keeps the stored one (update only). */
    public record Values(
            String username,
            String clientId,
            String passwordHash,
            boolean blocked,
            List<String> publishAcl,
            List<String> subscribeAcl,
            String description,
            String certificateCn,
            String tenant) {}

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;

    public CredentialStore(JdbcClient jdbc, JdbcTemplate jdbcTemplate) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
    }

    /**
     * Share-locks the credentials a batch of CONNECTs authenticated against, until the end of the transaction, in id
     * order: a credential change waits for those CONNECTs, and one that committed first shows as another version.
     *
     * @return version by id; blocked and deleted credentials are absent
     */
    public Map<Long, Long> lockVersionsForConnect(Collection<Long> ids) {
        Map<Long, Long> versions = new HashMap<>();
        if (ids.isEmpty()) {
            return versions;
        }
        jdbc.sql("SELECT id, version FROM credentials WHERE id = ANY(:ids) AND NOT blocked ORDER BY id FOR SHARE")
                .param("ids", ids.toArray(Long[]::new))
                .query((rs, n) -> Map.entry(rs.getLong("id"), rs.getLong("version")))
                .list()
                .forEach(e -> versions.put(e.getKey(), e.getValue()));
        return versions;
    }

    /**
     * What {@link CredentialFit} needs to decide these CONNECTs, in two queries whatever their number: every
     * credential naming one of the client ids, those naming one of the user names or CNs and no client id, and which
     * of the user names any credential names.
     */
    public CredentialCandidates candidates(
            Collection<String> usernames, Collection<String> clientIds, Collection<String> certificateCns) {
        StatementPipeline.Read<CredentialCandidates> read = candidatesRead(usernames, clientIds, certificateCns);
        StatementPipeline.run(jdbcTemplate, read);
        return read.result();
    }

    /** {@link #candidates} as one read of a pipeline, to be sent with other statements. */
    public StatementPipeline.Read<CredentialCandidates> candidatesRead(
            Collection<String> usernames, Collection<String> clientIds, Collection<String> certificateCns) {
        String[] names = present(usernames);
        List<Credential> credentials = new ArrayList<>();
        Set<String> named = new HashSet<>();
        StatementPipeline.RowsReader readCredentials = rows -> {
            for (int n = 0; rows.next(); n++) {
                credentials.add(map(rows, n));
            }
        };
        String byIdentity = "SELECT " + COLUMNS + " FROM credentials WHERE client_id = ANY(?)"
                + " OR (client_id IS NULL AND (username = ANY(?) OR certificate_cn = ANY(?)))";
        Object[] identities = {present(clientIds), names, present(certificateCns)};
        if (names.length == 0) {
            return new StatementPipeline.Read<>(
                    byIdentity,
                    identities,
                    new StatementPipeline.RowsReader[] {readCredentials},
                    () -> new CredentialCandidates(credentials, Set.of()));
        }
        return new StatementPipeline.Read<>(
                byIdentity + "; SELECT u FROM unnest(CAST(? AS text[])) AS u"
                        + " WHERE EXISTS (SELECT 1 FROM credentials WHERE username = u)",
                new Object[] {identities[0], identities[1], identities[2], names},
                new StatementPipeline.RowsReader[] {
                    readCredentials,
                    rows -> {
                        while (rows.next()) {
                            named.add(rows.getString(1));
                        }
                    }
                },
                () -> new CredentialCandidates(credentials, Set.copyOf(named)));
    }

    private static String[] present(Collection<String> values) {
        return SqlArrays.text(
                values.stream().filter(Objects::nonNull).distinct().toList());
    }

    /**
     * Which identity of {@code v} credentials of another namespace than {@code v.tenant()} name, and that namespace
     * (null: global); empty when none does. {@code self}: the credential being changed, or 0.
     */
    public Optional<IdentityHolder> otherHolder(Values v, long self) {
        return jdbc.sql("""
                SELECT CASE WHEN username = :username THEN 'username'
                            WHEN client_id = :clientId THEN 'clientId' ELSE 'certificateCn' END AS identity,
                       tenant_id
                FROM credentials
                WHERE id <> :self AND tenant_id IS DISTINCT FROM :tenant
                  AND (username = :username OR client_id = :clientId OR certificate_cn = :cn)
                LIMIT 1""")
                .param("username", v.username())
                .param("clientId", v.clientId())
                .param("cn", v.certificateCn())
                .param("tenant", v.tenant())
                .param("self", self)
                .query((rs, n) -> new IdentityHolder(rs.getString("identity"), rs.getString("tenant_id")))
                .optional();
    }

    public Optional<Credential> find(long id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM credentials WHERE id = :id")
                .param("id", id)
                .query(ROW)
                .optional();
    }

    public List<Credential> page(long offset, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM credentials ORDER BY id LIMIT :limit OFFSET :offset")
                .param("limit", limit)
                .param("offset", offset)
                .query(ROW)
                .list();
    }

    /** A page of the tenant's credentials, by id. */
    public List<Credential> pageOfTenant(String tenant, long offset, int limit) {
        return jdbc.sql("SELECT " + COLUMNS
                        + " FROM credentials WHERE tenant_id = :tenant ORDER BY id LIMIT :limit OFFSET :offset")
                .param("tenant", tenant)
                .param("limit", limit)
                .param("offset", offset)
                .query(ROW)
                .list();
    }

    public long countOfTenant(String tenant) {
        return jdbc.sql("SELECT count(*) FROM credentials WHERE tenant_id = :tenant")
                .param("tenant", tenant)
                .query(Long.class)
                .single();
    }

    public long count() {
        return jdbc.sql("SELECT count(*) FROM credentials").query(Long.class).single();
    }

    /** Inserts a credential; a duplicate (user name, client id) pair fails with a DuplicateKeyException. */
    public long insert(Values v, Instant now) {
        return jdbc.sql("""
                INSERT INTO credentials (username, client_id, password_hash, blocked, publish_acl, subscribe_acl,
                    description, created_at, updated_at, certificate_cn, tenant_id)
                VALUES (:username, :clientId, :hash, :blocked, :publish, :subscribe, :description, :now, :now, :cn,
                    :tenant)
                RETURNING id""")
                .param("username", v.username())
                .param("clientId", v.clientId())
                .param("hash", v.passwordHash())
                .param("blocked", v.blocked())
                .param("publish", v.publishAcl().toArray(String[]::new))
                .param("subscribe", v.subscribeAcl().toArray(String[]::new))
                .param("description", v.description())
                .param("cn", v.certificateCn())
                .param("tenant", v.tenant())
                .param("now", Timestamps.toDb(now))
                .query(Long.class)
                .single();
    }

    /** Replaces a credential (row-locked until commit) and bumps its version; false when it does not exist. */
    public boolean update(long id, Values v, Instant now) {
        return jdbc.sql("""
                UPDATE credentials SET username = :username, client_id = :clientId,
                    password_hash = COALESCE(:hash, password_hash), blocked = :blocked, publish_acl = :publish,
                    subscribe_acl = :subscribe, description = :description, version = version + 1,
                    updated_at = :now, certificate_cn = :cn, tenant_id = :tenant
                WHERE id = :id""")
                        .param("username", v.username())
                        .param("clientId", v.clientId())
                        .param("hash", v.passwordHash())
                        .param("blocked", v.blocked())
                        .param("publish", v.publishAcl().toArray(String[]::new))
                        .param("subscribe", v.subscribeAcl().toArray(String[]::new))
                        .param("description", v.description())
                        .param("cn", v.certificateCn())
                        .param("tenant", v.tenant())
                        .param("now", Timestamps.toDb(now))
                        .param("id", id)
                        .update()
                == 1;
    }

    public boolean delete(long id) {
        return jdbc.sql("DELETE FROM credentials WHERE id = :id")
                        .param("id", id)
                        .update()
                == 1;
    }

    /** Connections that authenticated with the credential and are live now. */
    public List<LiveConnection> liveConnections(long credentialId) {
        return jdbc.sql("SELECT client_id, node_id, epoch FROM sessions"
                        + " WHERE connected AND credential_id = :id AND node_id IS NOT NULL")
                .param("id", credentialId)
                .query((rs, n) ->
                        new LiveConnection(rs.getString("client_id"), rs.getString("node_id"), rs.getLong("epoch")))
                .list();
    }

    private static Credential map(ResultSet rs, int row) throws SQLException {
        return new Credential(
                rs.getLong("id"),
                rs.getString("username"),
                rs.getString("client_id"),
                rs.getString("password_hash"),
                rs.getBoolean("blocked"),
                strings(rs.getArray("publish_acl")),
                strings(rs.getArray("subscribe_acl")),
                rs.getString("description"),
                rs.getLong("version"),
                Timestamps.read(rs, "created_at"),
                Timestamps.read(rs, "updated_at"),
                rs.getString("certificate_cn"),
                rs.getString("tenant_id"));
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
