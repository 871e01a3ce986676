package io.tributary.session.overview;

import io.tributary.common.sys.SysTopics;
import io.tributary.session.overview.ClusterOverview.TransportNode;
import io.tributary.session.store.Timestamps;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Transport nodes from their heartbeats ({@code transport_nodes}) joined with the {@code $SYS} figures each node
 * publishes as retained messages ({@code $SYS/broker/nodes/<node>/...}): what session-service knows of every node
 * without calling it.
 */
@Repository
public class TransportNodeStats {

    private static final Pattern COUNT = Pattern.compile("[0-9]{1,18}");
    /** Nodes that died longer ago than this are no longer listed. */
    private static final Duration RECENTLY_DEAD = Duration.ofMinutes(10);

    private record Figure(long value, Instant updatedAt) {}

    private final JdbcClient jdbc;

    public TransportNodeStats(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Live incarnations, and those that stopped within the last minutes, by node id. */
    public List<TransportNode> nodes(Duration nodeTimeout) {
        Map<String, Figure> figures = figures();
        return jdbc.sql("""
                SELECT node_id, incarnation, first_seen, last_seen,
                       dead_at IS NULL AND last_seen > now() - make_interval(secs => :timeout) AS alive
                FROM transport_nodes
                WHERE dead_at IS NULL OR last_seen > now() - make_interval(secs => :recent)
                ORDER BY node_id, first_seen""")
                .param("timeout", nodeTimeout.toMillis() / 1000.0)
                .param("recent", (double) RECENTLY_DEAD.toSeconds())
                .query((rs, n) -> {
                    String node = rs.getString("node_id");
                    boolean alive = rs.getBoolean("alive");
                    // The figures are per node id: they belong to its live incarnation, not to one that died.
                    Figure connected = alive ? figures.get(SysTopics.node(node, SysTopics.CLIENTS_CONNECTED)) : null;
                    Figure received = alive ? figures.get(SysTopics.node(node, SysTopics.MESSAGES_RECEIVED)) : null;
                    Figure sent = alive ? figures.get(SysTopics.node(node, SysTopics.MESSAGES_SENT)) : null;
                    return new TransportNode(
                            node,
                            rs.getString("incarnation"),
                            alive,
                            Timestamps.read(rs, "first_seen"),
                            Timestamps.read(rs, "last_seen"),
                            connected == null ? null : connected.value(),
                            received == null ? null : received.value(),
                            sent == null ? null : sent.value(),
                            received == null ? null : received.updatedAt());
                })
                .list();
    }

    /** The plain-count {@code $SYS} figures of all nodes that have a heartbeat row, by topic. */
    private Map<String, Figure> figures() {
        List<String> topics = new ArrayList<>();
        for (String node : jdbc.sql("SELECT DISTINCT node_id FROM transport_nodes")
                .query(String.class)
                .list()) {
            topics.add(SysTopics.node(node, SysTopics.CLIENTS_CONNECTED));
            topics.add(SysTopics.node(node, SysTopics.MESSAGES_RECEIVED));
            topics.add(SysTopics.node(node, SysTopics.MESSAGES_SENT));
        }
        Map<String, Figure> figures = new HashMap<>();
        if (topics.isEmpty()) {
            return figures;
        }
        jdbc.sql("SELECT topic, payload, updated_at FROM retained_messages WHERE topic IN (:topics)")
                .param("topics", topics)
                .query(rs -> {
                    // Decoded here, not in SQL: retained payloads are arbitrary bytes.
                    String text = new String(rs.getBytes("payload"), StandardCharsets.UTF_8);
                    if (COUNT.matcher(text).matches()) {
                        figures.put(
                                rs.getString("topic"),
                                new Figure(Long.parseLong(text), Timestamps.read(rs, "updated_at")));
                    }
                });
        return figures;
    }
}
