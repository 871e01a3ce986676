package io.tributary.transport.uplink;

import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.transport.metrics.TransportMetrics;

/**
 * The process's single Kafka producer for publish records, with the health signal CONNECT uses to refuse clients
 * while Kafka cannot take their messages. Callbacks run on the producer's I/O thread: they stay tiny and hand the
 * outcome to the caller, which hops back to its event loop.
 */
public final class PublishProducer {

    private static final Logger log = LoggerFactory.getLogger(PublishProducer.class);

    /** Outcome of one send, delivered on the producer I/O thread. */
    @FunctionalInterface
    public interface Outcome {
        void completed(Exception failure);
    }

    private final Producer<byte[], byte[]> producer;
    private final TransportMetrics metrics;
    private final AtomicLong lastFailureNanos = new AtomicLong();
    private final AtomicLong lastSuccessNanos = new AtomicLong(System.nanoTime());
    private volatile boolean failing;

    public PublishProducer(Producer<byte[], byte[]> producer, TransportMetrics metrics) {
        this.producer = producer;
        this.metrics = metrics;
    }

    /**
     * Sends asynchronously. A failure to even enqueue (buffer full, no metadata within max.block.ms) is reported
     * through {@code outcome} as well, on the calling thread, so callers have one path for both.
     */
    public void send(ProducerRecord<byte[], byte[]> record, Outcome outcome) {
        long start = System.nanoTime();
        Callback callback = (metadata, exception) -> {
            if (exception == null) {
                metrics.produceLatency(System.nanoTime() - start);
                markSuccess();
            } else {
                markFailure(exception);
            }
            outcome.completed(exception);
        };
        try {
            producer.send(record, callback);
        } catch (RuntimeException e) {
            markFailure(e);
            outcome.completed(e);
        }
    }

    /** True while the last produce failed and none has succeeded since: new clients are refused meanwhile. */
    public boolean unavailable() {
        return failing;
    }

    private void markSuccess() {
        lastSuccessNanos.set(System.nanoTime());
        if (failing) {
            failing = false;
            log.info("Kafka accepts publish records again");
        }
    }

    private void markFailure(Exception e) {
        lastFailureNanos.set(System.nanoTime());
        if (!failing) {
            failing = true;
            log.warn("Kafka does not accept publish records: {}", e.toString());
        }
    }
}
