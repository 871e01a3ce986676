package io.tributary.session.auth;

import io.tributary.session.store.Timestamps;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code auth_failures} table: failed CONNECT authentications counted per client id and source IP. */
@Repository
public class AuthFailureStore {

    /** One row, as listed by the admin API. */
    public record AuthFailure(
            String clientId,
            String remoteIp,
            long failures,
            @Nullable String lastUsername,
            String lastCause,
            Instant firstFailureAt,
            Instant lastFailureAt) {}

    private final JdbcClient jdbc;

    public AuthFailureStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public void record(String clientId, String remoteIp, String username, String cause, Instant now) {
        jdbc.sql("""
                INSERT INTO auth_failures (client_id, remote_ip, failures, last_username, last_cause,
                    first_failure_at, last_failure_at)
                VALUES (:clientId, :ip, 1, :username, :cause, :now, :now)
                ON CONFLICT (client_id, remote_ip) DO UPDATE SET failures = auth_failures.failures + 1,
                    last_username = EXCLUDED.last_username, last_cause = EXCLUDED.last_cause,
                    last_failure_at = EXCLUDED.last_failure_at""")
                .param("clientId", clientId)
                .param("ip", remoteIp)
                .param("username", username)
                .param("cause", cause)
                .param("now", Timestamps.toDb(now))
                .update();
    }

    /** Most recent first. */
    public List<AuthFailure> page(long offset, int limit) {
        return jdbc.sql("SELECT client_id, remote_ip, failures, last_username, last_cause, first_failure_at,"
                        + " last_failure_at FROM auth_failures ORDER BY last_failure_at DESC, client_id, remote_ip"
                        + " LIMIT :limit OFFSET :offset")
                .param("limit", limit)
                .param("offset", offset)
                .query((rs, n) -> new AuthFailure(
                        rs.getString("client_id"),
                        rs.getString("remote_ip"),
                        rs.getLong("failures"),
                        rs.getString("last_username"),
                        rs.getString("last_cause"),
                        Timestamps.read(rs, "first_failure_at"),
                        Timestamps.read(rs, "last_failure_at")))
                .list();
    }

    public long count() {
        return jdbc.sql("SELECT count(*) FROM auth_failures").query(Long.class).single();
    }

    /**
     * Deletes all but the {@code max} most recent rows (by last failure): the rows are keyed by a client-chosen client
     * id, so a flood from many addresses (each below the back-off's limits) must not grow the table without bound
     * between two purges by age.
     *
     * @return how many rows were deleted
     */
    public int keepNewest(long max) {
        return jdbc.sql("DELETE FROM auth_failures WHERE ctid IN (SELECT ctid FROM auth_failures"
                        + " ORDER BY last_failure_at DESC OFFSET :max)")
                .param("max", max)
                .update();
    }

    public int purgeOlderThan(Instant cutoff) {
        return jdbc.sql("DELETE FROM auth_failures WHERE last_failure_at < :cutoff")
                .param("cutoff", Timestamps.toDb(cutoff))
                .update();
    }
}
