package io.tributary.transport.uplink;

import io.tributary.common.concurrent.DaemonThreads;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this node can currently store publishes in Kafka. It turns unavailable when a produce fails and
 * available again when one succeeds — or, since refused clients cannot publish to prove it, when a periodic probe
 * finds the cluster answering again. While unavailable, CONNECT is refused as server unavailable.
 */
public final class KafkaAvailability implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaAvailability.class);
    private static final long PROBE_INTERVAL_MS = 2_000;

    private final Admin admin;
    private final ScheduledExecutorService prober;
    private volatile boolean unavailable;

    public KafkaAvailability(Admin admin) {
        this.admin = admin;
        this.prober = DaemonThreads.scheduler("kafka-availability-probe");
        prober.scheduleWithFixedDelay(this::probe, PROBE_INTERVAL_MS, PROBE_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    public boolean unavailable() {
        return unavailable;
    }

    public void produceSucceeded() {
        if (unavailable) {
            unavailable = false;
            log.info("Kafka accepts publish records again");
        }
    }

    public void produceFailed(Exception e) {
        if (!unavailable) {
            unavailable = true;
            log.warn("Kafka does not accept publish records, refusing new clients: {}", e.toString());
        }
    }

    private void probe() {
        if (!unavailable) {
            return;
        }
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) PROBE_INTERVAL_MS))
                    .nodes()
                    .get(PROBE_INTERVAL_MS, TimeUnit.MILLISECONDS);
            if (unavailable) {
                unavailable = false;
                log.info("Kafka answers again, accepting new clients");
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            // still unavailable
        }
    }

    @Override
    public void close() {
        prober.shutdownNow();
    }
}
