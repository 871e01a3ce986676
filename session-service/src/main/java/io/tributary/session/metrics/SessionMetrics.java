package io.tributary.session.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tributary.kafka.support.KafkaClientMeters;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * The service's own meters. The connected-sessions gauge is kept up to date by the request paths (+1 / -1 after
 * commit) and reset from PostgreSQL by {@link ConnectedSessionsRefresher}, which corrects any drift (other
 * instances, crashed nodes, restarts) without ever counting rows on a scrape.
 */
@Component
public class SessionMetrics {

    private final MeterRegistry registry;
    private final AtomicLong connected = new AtomicLong();
    private final Counter connects;
    private final Counter takeovers;
    private final Timer kafkaProduceLatency;
    private final Counter nodesDeclaredDead;
    private final Counter sessionsEndedForDeadNodes;
    private final Counter willsPublished;
    private final Counter willsCancelled;

    public SessionMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("tributary.sessions.connected", connected, AtomicLong::get)
                .description("Sessions with a live connection (refreshed from PostgreSQL)")
                .register(registry);
        connects = Counter.builder("tributary.session.connects")
                .description("CONNECTs accepted")
                .register(registry);
        takeovers = Counter.builder("tributary.session.takeovers")
                .description("CONNECTs that took over a live connection of the same client id")
                .register(registry);
        kafkaProduceLatency = Timer.builder("tributary.kafka.produce.latency")
                .description("Time from producing a request's records to the last acknowledgement")
                .tag("service", "session")
                // Buckets, not only per-pod percentiles: histogram_quantile() over the sum across replicas is the
                // only percentile that aggregates (a p99 of p99s means nothing).
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(java.time.Duration.ofNanos(100_000))
                .maximumExpectedValue(java.time.Duration.ofSeconds(10))
                .register(registry);
        nodesDeclaredDead = Counter.builder("tributary.nodes.declared.dead")
                .description("Transport node incarnations declared dead (heartbeats stopped, or replaced by a restart)")
                .register(registry);
        sessionsEndedForDeadNodes = Counter.builder("tributary.sessions.ended.dead.node")
                .description("Sessions still connected on a dead transport node, ended by session-service")
                .register(registry);
        willsPublished = Counter.builder("tributary.wills.published")
                .description("Wills published by session-service (delayed wills, wills of dead nodes)")
                .register(registry);
        willsCancelled = Counter.builder("tributary.wills.cancelled")
                .description("Delayed wills cancelled because the client connected again within the delay")
                .register(registry);
    }

    public void nodeDeclaredDead() {
        nodesDeclaredDead.increment();
    }

    public void sessionsEndedForDeadNodes(int n) {
        sessionsEndedForDeadNodes.increment(n);
    }

    public void willsPublished(int n) {
        willsPublished.increment(n);
    }

    public void willCancelled() {
        willsCancelled.increment();
    }

    public void connected(boolean wasConnected, boolean tookOver) {
        connects.increment();
        if (tookOver) {
            takeovers.increment();
        }
        if (!wasConnected) {
            connected.incrementAndGet();
        }
    }

    public void disconnected() {
        connected.updateAndGet(n -> Math.max(0, n - 1));
    }

    public void resetConnected(long count) {
        connected.set(count);
    }

    public long connectedSessions() {
        return connected.get();
    }

    public Timer kafkaProduceLatency() {
        return kafkaProduceLatency;
    }

    /**
     * Kafka's own client metrics (request and fetch rates, batch sizes, records lag, rebalances) as Micrometer
     * meters tagged with the client id; closing the result removes them, when the client is closed.
     */
    public AutoCloseable bindKafkaClients(Object... clients) {
        return KafkaClientMeters.bind(registry, clients);
    }
}
