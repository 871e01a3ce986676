package io.tributary.routing.sys;

import io.tributary.common.kafka.PublishRecordFormat;
import io.tributary.common.kafka.RetainedRecordFormat;
import io.tributary.common.sys.SysTopics;
import io.tributary.kafka.sys.HopLatencyStatistics;
import io.tributary.kafka.sys.PeriodicSysFigures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes this router's latency figures every {@code TRIBUTARY_SYS_INTERVAL} as retained QoS 0 messages on
 * {@code $SYS/broker/routers/<router>/latency/<hop>/p50|p99}: only a router sees a publish record arrive and its
 * downlink records acknowledged, so only it can say what those hops take. Like a transport node's figures they are
 * ordinary records on {@code tributary.publish}; session-service reads them from the retained store for the console.
 *
 * <p>Router ids are per process (pod name or host and pid), so a router that stops clears its topics (empty
 * retained payloads) rather than leave figures of an instance that no longer exists. Its own thread
 * ({@link PeriodicSysFigures}); a failed send (Kafka down) is logged once and the next interval publishes fresh
 * figures.
 */
public final class RouterSysPublisher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RouterSysPublisher.class);
    private static final Duration CLEAR_TIMEOUT = Duration.ofSeconds(2);

    private final String routerId;
    private final Duration interval;
    private final Producer<byte[], byte[]> producer;
    private final HopLatencyStatistics latencies;
    private final PeriodicSysFigures schedule;

    public RouterSysPublisher(
            String routerId, Duration interval, Producer<byte[], byte[]> producer, HopLatencyStatistics latencies) {
        // A topic level: no separators or wildcards from a configured instance id.
        this.routerId = routerId.replaceAll("[/+#]", "_");
        this.interval = interval;
        this.producer = producer;
        this.latencies = latencies;
        this.schedule = new PeriodicSysFigures(
                "this router",
                interval,
                this::statistics,
                (topic, payload, now) -> PublishRecordFormat.sysStatistic(topic, payload, this.routerId, now),
                (record, outcome) -> producer.send(record, (metadata, failure) -> outcome.accept(failure)));
    }

    /** Starts the periodic publishing after one interval; does nothing when the interval is 0. */
    public void start() {
        schedule.start(interval);
    }

    public String routerId() {
        return routerId;
    }

    /** The figures as they stand now, topic → payload. */
    public Map<String, String> statistics() {
        Map<String, String> stats = new LinkedHashMap<>();
        latencies.statistics().forEach((statistic, value) -> stats.put(SysTopics.router(routerId, statistic), value));
        return stats;
    }

    void publishOnce() {
        schedule.publishOnce();
    }

    /** Stops publishing and clears this router's topics (bounded wait: a stop never hangs on Kafka). */
    @Override
    public void close() {
        if (!schedule.enabled()) {
            return;
        }
        schedule.close();
        long now = System.currentTimeMillis();
        List<Future<?>> cleared = new ArrayList<>();
        // The deadline covers the sends too: with Kafka gone each send blocks for the producer's max.block.ms on
        // metadata, and one blocked send per record (8 of them) made a stop take 8 times that.
        long deadline = System.nanoTime() + CLEAR_TIMEOUT.toNanos();
        try {
            for (String topic : statistics().keySet()) {
                for (var record : RetainedRecordFormat.withCopies(
                        List.of(PublishRecordFormat.sysStatistic(topic, "", routerId, now)))) {
                    if (System.nanoTime() - deadline >= 0) {
                        throw new TimeoutException("Kafka did not take the records within " + CLEAR_TIMEOUT);
                    }
                    cleared.add(producer.send(record));
                }
            }
            for (Future<?> f : cleared) {
                f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.info("This router's $SYS topics were not cleared on stop: {}", e.toString());
        }
    }
}
