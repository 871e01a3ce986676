package io.tributary.session.sys;

import io.tributary.common.sys.SysTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The cluster-wide {@code $SYS} figures, read from PostgreSQL, which holds every session, subscription, retained
 * message and transport node of the cluster; and the claim that makes one instance publish them per interval.
 */
@Component
public class ClusterStats {

    /** A payload we sum must be a plain count: anything else in the retained store is ignored. */
    private static final Pattern COUNT = Pattern.compile("[0-9]{1,18}");

    private final JdbcClient jdbc;

    public ClusterStats(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Claims this interval's publication: true for exactly one caller per {@code interval} across all instances
     * (the row's timestamp moves only if the last publication is at least 90% of an interval old, so the jitter of
     * the instances' timers does not skip an interval).
     */
    public boolean claim(Duration interval) {
        return jdbc.sql("""
                UPDATE sys_publication SET published_at = now()
                WHERE id = 1 AND published_at <= now() - make_interval(secs => :seconds)""")
                        .param("seconds", interval.toMillis() * 0.9 / 1000.0)
                        .update()
                == 1;
    }

    /** Topic → payload of every cluster-wide statistic, as of now. */
    public Map<String, String> read() {
        Map<String, String> stats = new LinkedHashMap<>();
        Map<String, Object> sessions = jdbc.sql("""
                SELECT count(*) FILTER (WHERE connected) AS connected, count(*) AS total FROM sessions""").query().singleRow();
        long connected = ((Number) sessions.get("connected")).longValue();
        long total = ((Number) sessions.get("total")).longValue();
        stats.put(SysTopics.broker(SysTopics.CLIENTS_CONNECTED), Long.toString(connected));
        stats.put(SysTopics.broker(SysTopics.CLIENTS_DISCONNECTED), Long.toString(total - connected));
        stats.put(SysTopics.broker(SysTopics.CLIENTS_TOTAL), Long.toString(total));
        stats.put(
                SysTopics.broker(SysTopics.SUBSCRIPTIONS_COUNT),
                Long.toString(count("SELECT count(*) FROM subscriptions")));
        stats.put(SysTopics.broker(SysTopics.RETAINED_COUNT), Long.toString(count("""
                SELECT count(*) FROM retained_messages WHERE expires_at IS NULL OR expires_at > now()""")));
        stats.put(SysTopics.broker(SysTopics.NODES_COUNT), Long.toString(count("""
                SELECT count(DISTINCT node_id) FROM transport_nodes WHERE dead_at IS NULL""")));
        stats.put(
                SysTopics.broker(SysTopics.MESSAGES_RECEIVED),
                Long.toString(sumOfLiveNodes(SysTopics.MESSAGES_RECEIVED)));
        stats.put(SysTopics.broker(SysTopics.MESSAGES_SENT), Long.toString(sumOfLiveNodes(SysTopics.MESSAGES_SENT)));
        stats.put(SysTopics.broker(SysTopics.VERSION), SysTopics.version());
        return stats;
    }

    /**
     * The sum of the latest {@code $SYS/broker/nodes/<node>/<statistic>} figures of the transport nodes alive now, as
     * the retained store holds them: the counters live in each node's memory, and each node publishes its own.
     */
    private long sumOfLiveNodes(String statistic) {
        // Summed here, not in SQL: PostgreSQL may decode payloads before filtering rows, and other retained
        // payloads are arbitrary bytes. One row per live node.
        List<byte[]> payloads = jdbc.sql("""
                SELECT r.payload FROM retained_messages r
                WHERE r.topic IN (SELECT :prefix || n.node_id || :suffix FROM transport_nodes n
                                  WHERE n.dead_at IS NULL)""")
                .param("prefix", SysTopics.NODES)
                .param("suffix", "/" + statistic)
                .query(byte[].class)
                .list();
        long sum = 0;
        for (byte[] payload : payloads) {
            String text = new String(payload, StandardCharsets.UTF_8);
            if (COUNT.matcher(text).matches()) {
                sum += Long.parseLong(text);
            }
        }
        return sum;
    }

    private long count(String sql) {
        return jdbc.sql(sql).query(Long.class).single();
    }
}
