package io.tributary.transport.uplink;

import io.tributary.transport.metrics.TransportMetrics;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The process's single Kafka producer for publish records, with the health signal CONNECT uses to refuse clients
 * while Kafka cannot take their messages. Callbacks run on the producer's I/O thread: they stay tiny and hand the
 * outcome to the caller, which hops back to its event loop.
 */
public final class PublishProducer {

    /** Outcome of one send, delivered on the producer I/O thread. */
    @FunctionalInterface
    public interface Outcome {
        void completed(Exception failure);
    }

    private final Producer<byte[], byte[]> producer;
    private final TransportMetrics metrics;
    private final KafkaAvailability availability;

    public PublishProducer(
            Producer<byte[], byte[]> producer, TransportMetrics metrics, KafkaAvailability availability) {
        this.producer = producer;
        this.metrics = metrics;
        this.availability = availability;
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
                availability.produceSucceeded();
            } else {
                availability.produceFailed(exception);
            }
            outcome.completed(exception);
        };
        try {
            producer.send(record, callback);
        } catch (RuntimeException e) {
            availability.produceFailed(e);
            outcome.completed(e);
        }
    }

    /**
     * Sends several records (a publish, its mapped copies and its retained copy) and reports once, after Kafka answered for all of them:
     * with the first failure, or null when every one was stored. Called with one record it is {@link #send}.
     */
    public void sendAll(java.util.List<ProducerRecord<byte[], byte[]>> records, Outcome outcome) {
        if (records.size() == 1) {
            send(records.get(0), outcome);
            return;
        }
        java.util.concurrent.atomic.AtomicInteger pending =
                new java.util.concurrent.atomic.AtomicInteger(records.size());
        java.util.concurrent.atomic.AtomicReference<Exception> firstFailure =
                new java.util.concurrent.atomic.AtomicReference<>();
        for (ProducerRecord<byte[], byte[]> record : records) {
            send(record, failure -> {
                if (failure != null) {
                    firstFailure.compareAndSet(null, failure);
                }
                if (pending.decrementAndGet() == 0) {
                    outcome.completed(firstFailure.get());
                }
            });
        }
    }

    /** True while Kafka cannot take publishes: new clients are refused meanwhile. */
    public boolean unavailable() {
        return availability.unavailable();
    }
}
