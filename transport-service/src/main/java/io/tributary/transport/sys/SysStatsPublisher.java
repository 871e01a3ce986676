package io.tributary.transport.sys;

import io.tributary.common.sys.SysTopics;
import io.tributary.kafka.sys.HopLatencyStatistics;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.uplink.PublishProducer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes this node's statistics every {@code TRIBUTARY_SYS_INTERVAL} as retained QoS 0 messages on
 * {@code $SYS/broker/nodes/<node>/...}: connected clients, PUBLISH packets received and sent since the node started,
 * uptime, version, and the recent p50 / p99 of the data-path hops the node measures ({@code latency/<hop>/p50}, in
 * milliseconds; the console's overview shows them next to the routers'). Only the node knows these (its connections and counters live in its memory); the cluster-wide
 * figures come from session-service. The records take the normal publish path (Kafka {@code tributary.publish}), so
 * every node's subscribers, the retained store and any Kafka consumer get them.
 *
 * <p>Runs on its own thread, never on an event loop; a send that fails (Kafka down) is logged once and the next
 * interval simply publishes fresh figures.
 */
public final class SysStatsPublisher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SysStatsPublisher.class);

    private final String nodeId;
    private final Duration interval;
    private final PublishProducer producer;
    private final TransportMetrics metrics;
    private final IntSupplier connections;
    private final HopLatencyStatistics latencies;
    private final long startedAtNanos = System.nanoTime();
    private final ScheduledExecutorService timer;
    private volatile boolean failing;

    public SysStatsPublisher(
            String nodeId,
            Duration interval,
            PublishProducer producer,
            TransportMetrics metrics,
            IntSupplier connections) {
        this.nodeId = nodeId;
        this.interval = interval;
        this.producer = producer;
        this.metrics = metrics;
        this.connections = connections;
        this.latencies = new HopLatencyStatistics(metrics.hopTimers());
        this.timer = interval.isZero()
                ? null
                : Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "tributary-sys");
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Starts the periodic publishing; does nothing when the interval is 0. */
    public void start() {
        if (timer == null) {
            log.info("$SYS statistics disabled (TRIBUTARY_SYS_INTERVAL=0)");
            return;
        }
        timer.scheduleAtFixedRate(this::publishOnce, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
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
        try {
            long now = System.currentTimeMillis();
            for (Map.Entry<String, String> stat : statistics().entrySet()) {
                producer.send(SysTopics.record(stat.getKey(), stat.getValue(), nodeId, now), this::sent);
            }
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again: keep publishing at the next interval.
            log.warn("Could not publish $SYS statistics: {}", e.toString());
        }
    }

    private void sent(Exception failure) {
        if (failure != null && !failing) {
            failing = true;
            log.warn("$SYS statistics not stored by Kafka (retried every {}): {}", interval, failure.toString());
        } else if (failure == null && failing) {
            failing = false;
            log.info("$SYS statistics published again");
        }
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
