package io.tributary.routing.fanout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;

import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.subscription.SharedTargets;
import io.tributary.routing.metrics.RoutingMetrics;

/**
 * Routes a batch of publish records: one record per interested transport node on that node's downlink topic, with
 * the publish's key, value and headers unchanged (in order) plus, when share groups chose members on that node,
 * {@link RecordHeaders#SHARED_TARGETS} naming them; then waits until every one is acknowledged. Only then
 * may the batch's offsets be committed: a router that dies in between routes the batch again (at least once).
 */
public final class DownlinkFanout {

    /** How often a wait for acknowledgements checks whether the service is stopping. */
    private static final long WAIT_SLICE_MS = 200;
    /**
     * How much longer acknowledgements are awaited once the service is stopping: they usually come within
     * milliseconds, and a batch committed before stopping is not routed twice.
     */
    private static final long STOP_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final Producer<byte[], byte[]> producer;
    private final DeliveryPlanner planner;
    private final DownlinkTopicCache downlinkTopics;
    private final RoutingMetrics metrics;
    private final Duration produceTimeout;
    private final BooleanSupplier running;

    public DownlinkFanout(Producer<byte[], byte[]> producer, DeliveryPlanner planner, DownlinkTopicCache downlinkTopics,
            RoutingMetrics metrics, Duration produceTimeout, BooleanSupplier running) {
        this.producer = producer;
        this.planner = planner;
        this.downlinkTopics = downlinkTopics;
        this.metrics = metrics;
        this.produceTimeout = produceTimeout;
        this.running = running;
    }

    /**
     * Sends the downlink records of {@code batch} and waits for all their acknowledgements.
     *
     * @return the offsets to commit: per partition, the offset after the batch's last record
     * @throws DeliveryFailedException when a record was not acknowledged (or the service is stopping)
     */
    public Map<TopicPartition, OffsetAndMetadata> route(ConsumerRecords<byte[], byte[]> batch) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        int unknownNodes = 0;
        int withoutTopic = 0;
        for (ConsumerRecord<byte[], byte[]> publish : batch) {
            offsets.put(new TopicPartition(publish.topic(), publish.partition()),
                    new OffsetAndMetadata(publish.offset() + 1));
            if (publish.key() == null) {
                withoutTopic++;
                continue;
            }
            String topic = new String(publish.key(), StandardCharsets.UTF_8);
            String publisher = RecordHeaders.readString(publish.headers(), RecordHeaders.CLIENT_ID);
            for (Map.Entry<String, List<SharedTargets.Target>> node
                    : planner.plan(publish.partition(), topic, publisher).entrySet()) {
                String downlink = TopicNames.downlink(node.getKey());
                if (!downlinkTopics.exists(downlink)) {
                    unknownNodes++;
                    continue;
                }
                sends.add(send(downlink, publish, node.getValue()));
            }
        }
        if (unknownNodes > 0) {
            metrics.dropped(RoutingMetrics.DROP_UNKNOWN_NODE, unknownNodes);
        }
        if (withoutTopic > 0) {
            metrics.dropped(RoutingMetrics.DROP_NO_TOPIC, withoutTopic);
        }
        awaitAcknowledgements(sends);
        return offsets;
    }

    private Future<RecordMetadata> send(String downlink, ConsumerRecord<byte[], byte[]> publish,
            List<SharedTargets.Target> sharedTargets) {
        Headers headers = new org.apache.kafka.common.header.internals.RecordHeaders(publish.headers().toArray());
        // A publisher cannot choose the members: a header of that name on the publish record is never passed on.
        headers.remove(RecordHeaders.SHARED_TARGETS);
        if (!sharedTargets.isEmpty()) {
            headers.add(RecordHeaders.SHARED_TARGETS, SharedTargets.encode(sharedTargets));
        }
        ProducerRecord<byte[], byte[]> delivery = new ProducerRecord<>(downlink, null, publish.key(), publish.value(),
                headers);
        long start = System.nanoTime();
        try {
            // The callback runs on the producer's I/O thread: it only updates meters.
            return producer.send(delivery, (metadata, error) -> {
                if (error == null) {
                    metrics.delivered(start);
                }
            });
        } catch (KafkaException e) {
            throw new DeliveryFailedException("cannot send to " + downlink + ": " + e, e);
        }
    }

    private void awaitAcknowledgements(List<Future<RecordMetadata>> sends) {
        // The producer's delivery timeout bounds every send; the margin covers the linger and the callback.
        long deadline = System.nanoTime() + produceTimeout.toNanos() + TimeUnit.SECONDS.toNanos(5);
        boolean stopping = false;
        for (Future<RecordMetadata> send : sends) {
            while (true) {
                if (!stopping && !running.getAsBoolean()) {
                    stopping = true;
                    deadline = Math.min(deadline, System.nanoTime() + STOP_GRACE_NANOS);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new DeliveryFailedException(stopping ? "stopping before the batch was acknowledged"
                            : "downlink records not acknowledged within " + produceTimeout, null);
                }
                try {
                    send.get(Math.min(WAIT_SLICE_MS, TimeUnit.NANOSECONDS.toMillis(left) + 1), TimeUnit.MILLISECONDS);
                    break;
                } catch (TimeoutException e) {
                    // Check for stop and deadline, then wait again.
                } catch (ExecutionException e) {
                    throw new DeliveryFailedException("downlink record not acknowledged: " + e.getCause(),
                            e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new DeliveryFailedException("interrupted waiting for acknowledgements", e);
                }
            }
        }
    }
}
