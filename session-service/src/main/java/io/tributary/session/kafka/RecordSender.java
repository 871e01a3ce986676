package io.tributary.session.kafka;

import io.micrometer.core.instrument.Timer;
import io.tributary.common.kafka.RetainedRecordFormat;
import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.metrics.SessionMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.springframework.stereotype.Component;

/**
 * Produces the records of one request and waits until Kafka acknowledged all of them. Callers do this inside their
 * database transaction, under the session's row lock, so that the feed order per key is the commit order and a
 * failure rolls the transaction back. A retained publish record (a will, a bridged message, a $SYS figure) is sent
 * with its copy for the retained topic ({@link RetainedRecordFormat}), and both are awaited.
 */
@Component
public class RecordSender {

    private final Producer<byte[], byte[]> producer;
    private final Duration ackTimeout;
    private final SessionMetrics metrics;

    public RecordSender(
            Producer<byte[], byte[]> producer, SessionServiceProperties properties, SessionMetrics metrics) {
        this.producer = producer;
        // A little longer than the producer's delivery timeout, so that normally the producer's own verdict on a
        // record is what fails the request.
        this.ackTimeout = properties.kafka().ackTimeout().plusSeconds(1);
        this.metrics = metrics;
    }

    /** @throws KafkaUnavailableException when a record was refused or not acknowledged in time */
    public void sendAndAwait(List<ProducerRecord<byte[], byte[]>> batch) {
        send(batch).await();
    }

    /**
     * Records sent and not yet awaited: the caller does its other statements while Kafka acknowledges them, and
     * awaits them before its transaction commits (still under its locks, so the feed order per key stays the commit
     * order).
     */
    public final class Sent {

        private final List<ProducerRecord<byte[], byte[]>> records;
        private final List<CompletableFuture<RecordMetadata>> acks;
        private final Timer.Sample sample;
        private final KafkaException refused;

        private Sent(
                List<ProducerRecord<byte[], byte[]>> records,
                List<CompletableFuture<RecordMetadata>> acks,
                Timer.Sample sample,
                KafkaException refused) {
            this.records = records;
            this.acks = acks;
            this.sample = sample;
            this.refused = refused;
        }

        /** @throws KafkaUnavailableException when a record was refused or not acknowledged in time */
        public void await() {
            if (sample == null) {
                return;
            }
            try {
                if (refused != null) {
                    throw new KafkaUnavailableException("Kafka refused a record: " + refused.getMessage(), refused);
                }
                CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
                        .get(ackTimeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                throw new KafkaUnavailableException("Kafka did not accept a record: " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                throw new KafkaUnavailableException(
                        "Kafka did not acknowledge " + records.size() + " record(s) within " + ackTimeout.toMillis()
                                + " ms",
                        e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaUnavailableException("interrupted while waiting for Kafka", e);
            } finally {
                sample.stop(metrics.kafkaProduceLatency());
            }
        }
    }

    /** Sends {@code batch} (and the retained copies) without waiting; {@link Sent#await} waits for the acks. */
    public Sent send(List<ProducerRecord<byte[], byte[]>> batch) {
        if (batch.isEmpty()) {
            return new Sent(List.of(), List.of(), null, null);
        }
        List<ProducerRecord<byte[], byte[]>> records = RetainedRecordFormat.withCopies(batch);
        Timer.Sample sample = Timer.start();
        List<CompletableFuture<RecordMetadata>> acks = new ArrayList<>(records.size());
        try {
            for (ProducerRecord<byte[], byte[]> record : records) {
                CompletableFuture<RecordMetadata> ack = new CompletableFuture<>();
                producer.send(record, (metadata, error) -> {
                    if (error != null) {
                        ack.completeExceptionally(error);
                    } else {
                        ack.complete(metadata);
                    }
                });
                acks.add(ack);
                if (ack.isCompletedExceptionally()) {
                    // Failed before leaving the client (no metadata within max.block.ms): the rest would too.
                    break;
                }
            }
        } catch (KafkaException e) {
            return new Sent(records, acks, sample, e);
        }
        return new Sent(records, acks, sample, null);
    }
}
