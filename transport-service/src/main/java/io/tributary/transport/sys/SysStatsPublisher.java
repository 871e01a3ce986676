package io.tributary.transport.sys;

import io.tributary.common.kafka.PublishRecordFormat;
import io.tributary.common.sys.SysTopics;
import io.tributary.kafka.sys.HopLatencyStatistics;
import io.tributary.kafka.sys.PeriodicSysFigures;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.uplink.PublishProducer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * Publishes this node's statistics every {@code TRIBUTARY_SYS_INTERVAL} as retained QoS 0 messages on
 * {@code $SYS/broker/nodes/<node>/...}: connected clients, PUBLISH packets received and sent since the node started,
 * uptime, version, and the recent p50 / p99 of the data-path hops the node measures ({@code latency/<hop>/p50}, in
 * milliseconds; the console's overview shows them next to the routers'). Only the node knows these (its connections and counters live in its memory); the cluster-wide
 * figures come from session-service. The records take the normal publish path (Kafka {@code tributary.publish}), so
 * every node's subscribers, the retained store and any Kafka consumer get them.
 *
 * <p>Runs on its own thread, never on an event loop ({@link PeriodicSysFigures}); a send that fails (Kafka down) is
 * logged once and the next interval simply publishes fresh figures.
 */
public final class SysStatsPublisher implements AutoCloseable {

    private final String nodeId;
    private final TransportMetrics metrics;
    private final IntSupplier connections;
    private final HopLatencyStatistics latencies;
    private final long startedAtNanos = System.nanoTime();
    private final PeriodicSysFigures schedule;

    public SysStatsPublisher(
            String nodeId,
            Duration interval,
            PublishProducer producer,
            TransportMetrics metrics,
            IntSupplier connections) {
        this.nodeId = nodeId;
        this.metrics = metrics;
        this.connections = connections;
        this.latencies = new HopLatencyStatistics(metrics.hopTimers());
        this.schedule = new PeriodicSysFigures(
                "this node",
                interval,
                this::statistics,
                (topic, payload, now) -> PublishRecordFormat.sysStatistic(topic, payload, nodeId, now),
                (record, outcome) -> producer.send(record, outcome::accept));
    }

    /** Starts the periodic publishing at once; does nothing when the interval is 0. */
    public void start() {
        schedule.start(Duration.ZERO);
    }

    /** The statistics as they stand now, topic → payload, in publishing order. */
    public Map<String, String> statistics() {
        Map<String, String> stats = new LinkedHashMap<>();
        stats.put(SysTopics.node(nodeId, SysTopics.CLIENTS_CONNECTED), Integer.toString(connections.getAsInt()));
        stats.put(SysTopics.node(nodeId, SysTopics.MESSAGES_RECEIVED), Long.toString(metrics.publishesInTotal()));
        stats.put(SysTopics.node(nodeId, SysTopics.MESSAGES_SENT), Long.toString(metrics.publishesOutTotal()));
        stats.put(
                SysTopics.node(nodeId, SysTopics.UPTIME),
                SysTopics.uptime(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startedAtNanos)));
        stats.put(SysTopics.node(nodeId, SysTopics.VERSION), SysTopics.version());
        latencies.statistics().forEach((statistic, value) -> stats.put(SysTopics.node(nodeId, statistic), value));
        return stats;
    }

    void publishOnce() {
        schedule.publishOnce();
    }

    @Override
    public void close() {
        schedule.close();
    }
}
