package io.tributary.session.overview;

import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.kafkaview.KafkaInspector;
import io.tributary.session.overview.ClusterOverview.GroupHealth;
import io.tributary.session.overview.ClusterOverview.HopLatency;
import io.tributary.session.overview.ClusterOverview.TransportNode;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Gathers the overview from PostgreSQL (sessions, node heartbeats, the nodes' {@code $SYS} figures) and Kafka (the
 * routing and session-service consumer groups). One answer is shared for {@link ConsoleProperties#overviewCache()}:
 * each open console polls every few seconds, and the session count reads the whole table.
 */
@Service
public class OverviewService {

    private static final Logger log = LoggerFactory.getLogger(OverviewService.class);

    private final JdbcClient jdbc;
    private final TransportNodeStats nodes;
    private final DataPathLatency latency;
    private final KafkaInspector kafka;
    private final SessionServiceProperties properties;
    private final ConsoleProperties console;
    private final Clock clock;
    private ClusterOverview last;

    public OverviewService(
            JdbcClient jdbc,
            TransportNodeStats nodes,
            DataPathLatency latency,
            KafkaInspector kafka,
            SessionServiceProperties properties,
            ConsoleProperties console) {
        this.jdbc = jdbc;
        this.nodes = nodes;
        this.latency = latency;
        this.kafka = kafka;
        this.properties = properties;
        this.console = console;
        this.clock = Clock.systemUTC();
    }

    public synchronized ClusterOverview overview() {
        Instant now = clock.instant();
        if (last != null && last.at().plus(console.overviewCache()).isAfter(now)) {
            return last;
        }
        last = read(now);
        return last;
    }

    private ClusterOverview read(Instant now) {
        List<String> problems = new ArrayList<>();
        String routingGroup = console.routingGroup();
        String sessionGroup = properties.retained().consumerGroup();
        // Kafka answers while PostgreSQL is read
        KafkaInspector.PendingGroups groups = null;
        try {
            groups = kafka.requestGroups(List.of(routingGroup, sessionGroup));
        } catch (RuntimeException e) {
            problems.add("Kafka: " + e.getMessage());
        }
        Long sessions = null;
        List<TransportNode> transport = List.of();
        List<HopLatency> hops = List.of();
        try {
            sessions =
                    jdbc.sql("SELECT count(*) FROM sessions").query(Long.class).single();
            transport = nodes.nodes(properties.liveness().nodeTimeout());
            Set<String> live = new HashSet<>();
            transport.stream().filter(TransportNode::alive).forEach(n -> live.add(n.nodeId()));
            hops = latency.hops(live, now);
        } catch (RuntimeException e) {
            problems.add("PostgreSQL: " + e.getMessage());
        }
        long connections = 0;
        long received = 0;
        long sent = 0;
        for (TransportNode node : transport) {
            if (node.alive()) {
                connections += node.connections() == null ? 0 : node.connections();
                received += node.messagesReceived() == null ? 0 : node.messagesReceived();
                sent += node.messagesSent() == null ? 0 : node.messagesSent();
            }
        }
        Map<String, KafkaInspector.GroupView> views = Map.of();
        if (groups != null) {
            try {
                views = groups.await();
            } catch (RuntimeException e) {
                log.warn(
                        "Overview: cannot describe the consumer groups {} and {}: {}",
                        routingGroup,
                        sessionGroup,
                        e.getMessage());
                problems.add("Kafka (consumer groups " + routingGroup + ", " + sessionGroup + "): " + e.getMessage());
            }
        }
        return new ClusterOverview(
                now,
                sessions,
                connections,
                received,
                sent,
                transport,
                health(views.get(routingGroup)),
                health(views.get(sessionGroup)),
                hops,
                problems);
    }

    private static GroupHealth health(KafkaInspector.GroupView g) {
        return g == null ? null : new GroupHealth(g.groupId(), g.state(), g.members(), g.lag());
    }
}
