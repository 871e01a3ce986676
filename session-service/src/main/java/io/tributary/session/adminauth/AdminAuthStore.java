package io.tributary.session.adminauth;

import io.tributary.session.store.Timestamps;
import io.tributary.session.web.AdminPrincipal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code admin_users} and {@code admin_tokens} tables. Tokens are looked up by their SHA-256 only. */
@Repository
public class AdminAuthStore {

    private final JdbcClient jdbc;

    public AdminAuthStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    private static final String USER_COLUMNS = "id, username, password_hash, tenant_id, created_at";

    public Optional<AdminUser> findUser(String username) {
        return jdbc.sql("SELECT " + USER_COLUMNS + " FROM admin_users WHERE username = :username")
                .param("username", username)
                .query(AdminAuthStore::user)
                .optional();
    }

    public Optional<AdminUser> findUser(long id) {
        return jdbc.sql("SELECT " + USER_COLUMNS + " FROM admin_users WHERE id = :id")
                .param("id", id)
                .query(AdminAuthStore::user)
                .optional();
    }

    /** Every admin user, by id (admins are few: no paging). */
    public List<AdminUser> users() {
        return jdbc.sql("SELECT " + USER_COLUMNS + " FROM admin_users ORDER BY id")
                .query(AdminAuthStore::user)
                .list();
    }

    /** Inserts an admin user and returns its id; a taken user name is a {@code DuplicateKeyException}. */
    public long insertUser(String username, String passwordHash, @Nullable String tenant, Instant now) {
        return jdbc.sql("""
                INSERT INTO admin_users (username, password_hash, tenant_id, created_at)
                VALUES (:username, :hash, :tenant, :now) RETURNING id""")
                .param("username", username)
                .param("hash", passwordHash)
                .param("tenant", tenant)
                .param("now", Timestamps.toDb(now))
                .query(Long.class)
                .single();
    }

    /** Locks every admin of the whole cluster (in id order), so two deletions cannot both remove the last one. */
    public int lockUnscopedUsers() {
        return jdbc.sql("SELECT id FROM admin_users WHERE tenant_id IS NULL ORDER BY id FOR UPDATE")
                .query(Long.class)
                .list()
                .size();
    }

    /** Deletes the admin user and, through the foreign key, its tokens. */
    public boolean deleteUser(long id) {
        return jdbc.sql("DELETE FROM admin_users WHERE id = :id")
                        .param("id", id)
                        .update()
                == 1;
    }

    private static AdminUser user(ResultSet rs, int row) throws SQLException {
        return new AdminUser(
                rs.getLong("id"),
                rs.getString("username"),
                rs.getString("password_hash"),
                rs.getString("tenant_id"),
                Timestamps.read(rs, "created_at"));
    }

    public long countUsers() {
        return jdbc.sql("SELECT count(*) FROM admin_users").query(Long.class).single();
    }

    /**
     * Inserts the admin only when no admin exists at all; true when it was inserted. Two instances starting at once
     * with the same configuration insert one row (the user name is unique).
     */
    public boolean insertFirstUser(String username, String passwordHash, Instant now) {
        return jdbc.sql("""
                INSERT INTO admin_users (username, password_hash, created_at)
                SELECT :username, :hash, :now WHERE NOT EXISTS (SELECT 1 FROM admin_users)
                ON CONFLICT (username) DO NOTHING""")
                        .param("username", username)
                        .param("hash", passwordHash)
                        .param("now", Timestamps.toDb(now))
                        .update()
                == 1;
    }

    public void insertToken(String tokenHash, long userId, Instant now, Instant expiresAt) {
        jdbc.sql("INSERT INTO admin_tokens (token_hash, admin_user_id, created_at, expires_at)"
                        + " VALUES (:hash, :user, :now, :expires)")
                .param("hash", tokenHash)
                .param("user", userId)
                .param("now", Timestamps.toDb(now))
                .param("expires", Timestamps.toDb(expiresAt))
                .update();
    }

    /** The admin owning the token when the token exists and has not expired at {@code now}. */
    public Optional<AdminPrincipal> validTokenOwner(String tokenHash, Instant now) {
        return jdbc.sql(
                        "SELECT u.username, u.tenant_id FROM admin_tokens t JOIN admin_users u ON u.id = t.admin_user_id"
                                + " WHERE t.token_hash = :hash AND t.expires_at > :now")
                .param("hash", tokenHash)
                .param("now", Timestamps.toDb(now))
                .query((rs, n) -> new AdminPrincipal(rs.getString("username"), rs.getString("tenant_id")))
                .optional();
    }

    public boolean deleteToken(String tokenHash) {
        return jdbc.sql("DELETE FROM admin_tokens WHERE token_hash = :hash")
                        .param("hash", tokenHash)
                        .update()
                == 1;
    }

    public int purgeExpiredTokens(Instant now) {
        return jdbc.sql("DELETE FROM admin_tokens WHERE expires_at <= :now")
                .param("now", Timestamps.toDb(now))
                .update();
    }
}
