package io.tributary.transport.qos2;

import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.uplink.PublishProducer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's transactional producer for exactly-once QoS 2: each call's records (a publish, its mapped and retained copies and its
 * marker, or a marker's tombstone) are committed in one Kafka transaction, all or none. Calls are grouped: one thread
 * begins a transaction, sends everything that queued up meanwhile, commits, reports to every caller and starts over,
 * so the commit's round trips are shared by all QoS 2 publishes of the node. The transactional id is fixed per node
 * id: a node restarted under its id aborts at once whatever its dead predecessor left open. Callers never block
 * (their event loop only enqueues); outcomes are reported on this thread, and callers hop back to their loop.
 */
public final class TransactionalUplink implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TransactionalUplink.class);
    /** Calls per transaction at most: bounds the records one failed commit sends back to their clients. */
    private static final int MAX_BATCH = 2000;

    private static final Duration RETRY = Duration.ofSeconds(1);

    private record Pending(
            List<ProducerRecord<byte[], byte[]>> records, PublishProducer.Outcome outcome, long startNanos) {}

    private final Supplier<Producer<byte[], byte[]>> producers;
    private final TransportMetrics metrics;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    private Producer<byte[], byte[]> producer;

    /** @param producers makes a producer with a transactional.id (again after a fatal error) */
    public TransactionalUplink(String nodeId, Supplier<Producer<byte[], byte[]>> producers, TransportMetrics metrics) {
        this.producers = producers;
        this.metrics = metrics;
        this.thread = new Thread(this::run, "qos2-transactions-" + nodeId);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Commits {@code records} in one transaction (with whatever else is queued); never blocks. */
    public void send(List<ProducerRecord<byte[], byte[]>> records, PublishProducer.Outcome outcome) {
        if (!running) {
            outcome.completed(new IllegalStateException("the node is shutting down"));
            return;
        }
        queue.add(new Pending(records, outcome, System.nanoTime()));
    }

    private void run() {
        List<Pending> batch = new ArrayList<>();
        while (running) {
            try {
                if (producer == null && !open()) {
                    failQueued(new KafkaException("the transactional producer could not be initialised"));
                    continue;
                }
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                commit(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                log.error("QoS 2 transaction loop failed", e);
                report(batch, e);
            } finally {
                batch.clear();
            }
        }
        failQueued(new IllegalStateException("the node is shutting down"));
    }

    private void commit(List<Pending> batch) {
        try {
            producer.beginTransaction();
            for (Pending p : batch) {
                for (ProducerRecord<byte[], byte[]> record : p.records()) {
                    producer.send(record);
                }
            }
            // Flushes the sends first and fails if any of them failed: then nothing of the batch is committed.
            producer.commitTransaction();
            long now = System.nanoTime();
            for (Pending p : batch) {
                metrics.produceLatency(now - p.startNanos());
                p.outcome().completed(null);
            }
        } catch (KafkaException e) {
            log.warn("QoS 2 transaction of {} publish(es) not committed: {}", batch.size(), e.toString());
            try {
                producer.abortTransaction();
            } catch (RuntimeException abortFailure) {
                // Fenced or in a fatal state: a new producer (same transactional.id) starts clean.
                closeProducer();
            }
            report(batch, e);
        }
    }

    private static void report(List<Pending> batch, Exception failure) {
        for (Pending p : batch) {
            p.outcome().completed(failure);
        }
    }

    private boolean open() throws InterruptedException {
        try {
            producer = producers.get();
            producer.initTransactions();
            return true;
        } catch (RuntimeException e) {
            log.warn("QoS 2 transactional producer not ready, retrying in {}: {}", RETRY, e.toString());
            closeProducer();
            Thread.sleep(RETRY.toMillis());
            return false;
        }
    }

    private void failQueued(Exception failure) {
        List<Pending> left = new ArrayList<>();
        queue.drainTo(left);
        report(left, failure);
    }

    private void closeProducer() {
        if (producer != null) {
            try {
                producer.close(Duration.ZERO);
            } catch (RuntimeException ignored) {
                // Closing a broken producer: nothing more to do.
            }
            producer = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
        closeProducer();
    }

    /** The settings of the transactional producer on top of the publish producer's. */
    public static Map<String, Object> transactionalSettings(String nodeId, Duration transactionTimeout) {
        return Map.of(
                org.apache.kafka.clients.producer.ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                "tributary-qos2-" + nodeId,
                org.apache.kafka.clients.producer.ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                (int) transactionTimeout.toMillis(),
                org.apache.kafka.clients.producer.ProducerConfig.CLIENT_ID_CONFIG,
                "tributary-transport-qos2-" + nodeId,
                // Each transaction is committed as soon as the previous one is: no reason to wait for more records.
                org.apache.kafka.clients.producer.ProducerConfig.LINGER_MS_CONFIG,
                0);
    }
}
