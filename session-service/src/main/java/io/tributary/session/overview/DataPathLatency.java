package io.tributary.session.overview;

import io.tributary.common.sys.DataPathHop;
import io.tributary.common.sys.SysTopics;
import io.tributary.session.overview.ClusterOverview.HopLatency;
import io.tributary.session.store.Timestamps;
import io.tributary.session.sys.SysProperties;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The data path's latency hop by hop, from the figures transport nodes and routers publish under {@code $SYS}
 * ({@link DataPathHop}) and the retained store keeps: for each hop the worst p50 and worst p99 among the instances
 * that measure it. A node counts while its heartbeat says it is alive; a router (no heartbeat of its own) while its
 * figures are fresh, that is published within three {@code $SYS} intervals (and at least a minute).
 */
@Repository
public class DataPathLatency {

    private static final Pattern FIGURE =
            Pattern.compile("\\$SYS/broker/(nodes|routers)/([^/]+)/latency/([a-z-]+)/(p50|p99)");
    private static final Pattern MILLIS = Pattern.compile("[0-9]{1,9}(\\.[0-9]{1,6})?");

    private final JdbcClient jdbc;
    private final Duration fresh;

    public DataPathLatency(JdbcClient jdbc, SysProperties sys) {
        this.jdbc = jdbc;
        Duration threeIntervals = sys.interval().multipliedBy(3);
        this.fresh = threeIntervals.compareTo(Duration.ofMinutes(1)) > 0 ? threeIntervals : Duration.ofMinutes(1);
    }

    private static final class Worst {
        Double p50;
        Double p99;
        final Set<String> reporters = new HashSet<>();
        Instant at;

        void add(String reporter, String percentile, double millis, Instant updatedAt) {
            reporters.add(reporter);
            if (percentile.equals(DataPathHop.P50)) {
                p50 = p50 == null ? millis : Math.max(p50, millis);
            } else {
                p99 = p99 == null ? millis : Math.max(p99, millis);
            }
            at = at == null || updatedAt.isAfter(at) ? updatedAt : at;
        }
    }

    /**
     * Every hop, in the order a message takes them; a hop nobody reported has null figures.
     *
     * @param liveNodes the transport nodes alive now
     */
    public List<HopLatency> hops(Set<String> liveNodes, Instant now) {
        Map<DataPathHop, Worst> worst = new EnumMap<>(DataPathHop.class);
        Map<String, DataPathHop> byId = new HashMap<>();
        for (DataPathHop hop : DataPathHop.values()) {
            byId.put(hop.id(), hop);
        }
        Instant freshSince = now.minus(fresh);
        jdbc.sql("""
                SELECT topic, payload, updated_at FROM retained_messages
                WHERE topic LIKE :nodes OR topic LIKE :routers""")
                .param("nodes", SysTopics.NODES + "%")
                .param("routers", SysTopics.ROUTERS + "%")
                .query(rs -> {
                    Matcher m = FIGURE.matcher(rs.getString("topic"));
                    if (!m.matches()) {
                        return;
                    }
                    DataPathHop hop = byId.get(m.group(3));
                    String reporter = m.group(2);
                    Instant updatedAt = Timestamps.read(rs, "updated_at");
                    // Decoded here, not in SQL: retained payloads are arbitrary bytes.
                    String text = new String(rs.getBytes("payload"), StandardCharsets.UTF_8);
                    boolean node = m.group(1).equals("nodes");
                    boolean current = node ? liveNodes.contains(reporter) : updatedAt.isAfter(freshSince);
                    if (hop == null
                            || hop.reporter() != (node ? DataPathHop.Reporter.NODE : DataPathHop.Reporter.ROUTER)
                            || !current
                            || !MILLIS.matcher(text).matches()) {
                        return;
                    }
                    worst.computeIfAbsent(hop, h -> new Worst())
                            .add(reporter, m.group(4), Double.parseDouble(text), updatedAt);
                });
        List<HopLatency> hops = new ArrayList<>();
        for (DataPathHop hop : DataPathHop.values()) {
            Worst w = worst.get(hop);
            hops.add(new HopLatency(
                    hop.id(),
                    hop.reporter() == DataPathHop.Reporter.NODE ? "transport" : "routing",
                    w == null ? null : w.p50,
                    w == null ? null : w.p99,
                    w == null ? 0 : w.reporters.size(),
                    w == null ? null : w.at));
        }
        return hops;
    }
}
