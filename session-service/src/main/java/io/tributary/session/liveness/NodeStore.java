package io.tributary.session.liveness;

import io.tributary.session.store.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code transport_nodes} table: one row per node incarnation. Times are the database's clock ({@code now()}),
 * so heartbeats recorded by one session-service instance and the timeout checked by another agree whatever their
 * own clocks say.
 */
@Repository
public class NodeStore {

    /** An incarnation this call declared dead. */
    public record DeadNode(String nodeId, String incarnation, Instant lastSeen, boolean replaced) {}

    private final JdbcClient jdbc;

    public NodeStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Records a heartbeat. A new incarnation is inserted; a known one gets {@code last_seen = now()} unless it was
     * declared dead — a dead incarnation stays dead, whatever it says later.
     *
     * @return false when the incarnation was declared dead
     */
    public boolean heartbeat(String nodeId, String incarnation) {
        return jdbc.sql("""
                INSERT INTO transport_nodes (node_id, incarnation, first_seen, last_seen)
                VALUES (:nodeId, :incarnation, now(), now())
                ON CONFLICT (node_id, incarnation) DO UPDATE SET last_seen = now()
                    WHERE transport_nodes.dead_at IS NULL
                RETURNING node_id""")
                .param("nodeId", nodeId)
                .param("incarnation", incarnation)
                .query(String.class)
                .optional()
                .isPresent();
    }

    /**
     * Declares dead, and returns, the live incarnations not heard from within {@code timeout}, and those replaced by
     * a newer incarnation of the same node id that started after their last heartbeat (a node restarted faster
     * than the timeout). Each row is claimed by exactly one caller: candidates are locked with SKIP LOCKED and the
     * UPDATE sets {@code dead_at} only where it is still null, so concurrent detectors on several instances
     * never both declare one incarnation, and a heartbeat being recorded (row locked) wins over the detector.
     */
    public List<DeadNode> claimDead(Duration timeout) {
        return jdbc.sql("""
                UPDATE transport_nodes n SET dead_at = now()
                FROM (SELECT o.node_id, o.incarnation,
                             EXISTS (SELECT 1 FROM transport_nodes r
                                     WHERE r.node_id = o.node_id AND r.incarnation <> o.incarnation
                                       AND r.first_seen > o.last_seen) AS replaced
                      FROM transport_nodes o
                      WHERE o.dead_at IS NULL
                        AND (o.last_seen < now() - :timeoutMs * interval '1 millisecond'
                             OR EXISTS (SELECT 1 FROM transport_nodes r
                                        WHERE r.node_id = o.node_id AND r.incarnation <> o.incarnation
                                       AND r.first_seen > o.last_seen))
                      FOR UPDATE OF o SKIP LOCKED) c
                WHERE n.node_id = c.node_id AND n.incarnation = c.incarnation AND n.dead_at IS NULL
                RETURNING n.node_id, n.incarnation, n.last_seen, c.replaced""")
                .param("timeoutMs", timeout.toMillis())
                .query((rs, i) -> new DeadNode(
                        rs.getString("node_id"),
                        rs.getString("incarnation"),
                        Timestamps.read(rs, "last_seen"),
                        rs.getBoolean("replaced")))
                .list();
    }

    /**
     * Forgets dead incarnations older than {@code retention} with no session left on them, so restarts do not grow
     * the table forever. A zombie of such an old incarnation would be taken for a new one: the retention is long.
     */
    public int pruneDead(Duration retention) {
        return jdbc.sql("""
                DELETE FROM transport_nodes n
                WHERE n.dead_at < now() - :retentionMs * interval '1 millisecond'
                  AND NOT EXISTS (SELECT 1 FROM sessions s
                                  WHERE s.node_id = n.node_id AND s.node_incarnation = n.incarnation
                                    AND s.connected)""").param("retentionMs", retention.toMillis()).update();
    }
}
