package io.tributary.session.liveness;

import io.tributary.common.session.DisconnectApi;
import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.connect.DisconnectService;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.metrics.SessionMetrics;
import io.tributary.session.store.AfterCommit;
import io.tributary.session.store.SessionStore;
import io.tributary.session.will.WillPublisher;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Declares transport node incarnations dead when their heartbeats stop, and ends the sessions still connected on
 * dead incarnations as their connections would have ended: persistent sessions go offline (subscriptions re-pointed
 * offline in the feed, {@code expires_at} set), expiry-0 sessions are removed, and their wills are scheduled at
 * min(will delay, session expiry) — so wills without delay are published right away, by {@link WillPublisher}.
 *
 * <p>Every instance runs it. Declaring is a conditional UPDATE over rows locked with SKIP LOCKED (one instance
 * declares an incarnation, once); sessions are ended under their row locks, re-checked against the dead
 * incarnation, with the steps of {@link DisconnectService}. Sessions left over (an instance died half-way, a row was
 * locked) are picked up on the next run.
 */
@Component
public class NodeLivenessDetector implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(NodeLivenessDetector.class);
    /** Dead incarnations are kept this long for the record, and to keep refusing a zombie's heartbeats. */
    private static final Duration DEAD_NODE_RETENTION = Duration.ofDays(7);

    private record NodeKey(String nodeId, String incarnation) {}

    private final NodeStore nodes;
    private final SessionStore sessions;
    private final DisconnectService disconnects;
    private final RecordSender sender;
    private final WillPublisher wills;
    private final TransactionTemplate transactions;
    private final SessionMetrics metrics;
    private final Clock clock;
    private final SessionServiceProperties.Liveness settings;
    /**
     * Since when this instance has been able to run the detector without interruption. Nodes are declared dead only
     * once it has been up for a whole timeout: after a restart of session-service or an outage of PostgreSQL every
     * node's last heartbeat looks old, though the nodes were alive and only could not be heard.
     */
    private Instant healthySince;

    public NodeLivenessDetector(
            NodeStore nodes,
            SessionStore sessions,
            DisconnectService disconnects,
            RecordSender sender,
            WillPublisher wills,
            TransactionTemplate transactions,
            SessionMetrics metrics,
            Clock clock,
            SessionServiceProperties properties) {
        this.nodes = nodes;
        this.sessions = sessions;
        this.disconnects = disconnects;
        this.sender = sender;
        this.wills = wills;
        this.transactions = transactions;
        this.metrics = metrics;
        this.clock = clock;
        this.settings = properties.liveness();
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(this::run, settings.checkInterval());
    }

    void run() {
        try {
            check();
        } catch (RuntimeException e) {
            healthySince = null;
            log.warn("Node liveness check failed, retrying on the next run: {}", e.toString());
        }
    }

    /** One run: declare, end sessions, publish the wills that became due. @return sessions ended */
    public synchronized int check() {
        Instant now = clock.instant();
        if (healthySince == null) {
            healthySince = now;
        }
        List<NodeStore.DeadNode> declared = List.of();
        if (LivenessPolicy.mayDeclare(healthySince, now, settings.nodeTimeout())) {
            declared = nodes.claimDead(settings.nodeTimeout());
            declared.forEach(d -> metrics.nodeDeclaredDead());
        }
        Map<NodeKey, Integer> ended = endSessionsOnDeadNodes();
        for (NodeStore.DeadNode d : declared) {
            Integer n = ended.remove(new NodeKey(d.nodeId(), d.incarnation()));
            log.warn(
                    "Transport node {} (incarnation {}) declared dead: {} (last heartbeat {}); ended {} session(s)"
                            + " still connected on it",
                    d.nodeId(),
                    d.incarnation(),
                    d.replaced()
                            ? "restarted with a new incarnation"
                            : "no heartbeat for " + settings.nodeTimeout().toMillis() + " ms",
                    d.lastSeen(),
                    n == null ? 0 : n);
        }
        ended.forEach((key, n) -> log.warn(
                "Ended {} more session(s) still connected on dead transport node {}" + " (incarnation {})",
                n,
                key.nodeId(),
                key.incarnation()));
        int total = ended.values().stream().mapToInt(Integer::intValue).sum();
        if (!declared.isEmpty() || total > 0) {
            // Wills without delay are due now: publish them with this run rather than on the publisher's next one.
            wills.publishDue();
        }
        nodes.pruneDead(DEAD_NODE_RETENTION);
        return total;
    }

    /** @return sessions ended per dead incarnation, in this run */
    private Map<NodeKey, Integer> endSessionsOnDeadNodes() {
        Map<NodeKey, Integer> ended = new LinkedHashMap<>();
        for (int batch = 0; batch < settings.maxBatchesPerRun(); batch++) {
            List<NodeKey> keys = transactions.execute(status -> endBatch());
            if (keys == null) {
                break;
            }
            keys.forEach(k -> ended.merge(k, 1, Integer::sum));
            if (keys.size() < settings.batchSize()) {
                break;
            }
        }
        return ended;
    }

    private List<NodeKey> endBatch() {
        List<SessionStore.OnDeadNode> rows = sessions.lockConnectedOnDeadNodes(settings.batchSize());
        if (rows.isEmpty()) {
            return List.of();
        }
        Instant now = clock.instant();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        List<NodeKey> keys = new ArrayList<>(rows.size());
        List<DisconnectService.Ending> endings = new ArrayList<>(rows.size());
        for (SessionStore.OnDeadNode row : rows) {
            // Ended as if its connection had dropped: the expiry it had, the will due after its delay.
            endings.add(new DisconnectService.Ending(
                    row.session(), row.session().sessionExpirySeconds(), DisconnectApi.WillOutcome.SCHEDULE));
            keys.add(new NodeKey(row.session().nodeId(), row.nodeIncarnation()));
        }
        disconnects.endAll(endings, now, records);
        sender.sendAndAwait(records);
        disconnects.ended(rows.stream().map(SessionStore.OnDeadNode::session).toList());
        int n = rows.size();
        AfterCommit.run(() -> metrics.sessionsEndedForDeadNodes(n));
        return keys;
    }
}
