package io.tributary.session.adminauth;

import io.tributary.session.store.Timestamps;
import java.time.Instant;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code admin_users} and {@code admin_tokens} tables. Tokens are looked up by their SHA-256 only. */
@Repository
public class AdminAuthStore {

    private final JdbcClient jdbc;

    public AdminAuthStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<AdminUser> findUser(String username) {
        return jdbc.sql("SELECT id, username, password_hash FROM admin_users WHERE username = :username")
                .param("username", username)
                .query((rs, n) ->
                        new AdminUser(rs.getLong("id"), rs.getString("username"), rs.getString("password_hash")))
                .optional();
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

    /** The user name owning the token when the token exists and has not expired at {@code now}. */
    public Optional<String> validTokenOwner(String tokenHash, Instant now) {
        return jdbc.sql("SELECT u.username FROM admin_tokens t JOIN admin_users u ON u.id = t.admin_user_id"
                        + " WHERE t.token_hash = :hash AND t.expires_at > :now")
                .param("hash", tokenHash)
                .param("now", Timestamps.toDb(now))
                .query(String.class)
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
