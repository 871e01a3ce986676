package io.tributary.routing.fanout;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.tributary.common.kafka.DownlinkType;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.queue.QueuedNotice;
import io.tributary.common.subscription.SharedTargets;
import io.tributary.kafka.tracing.Hop;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.routing.metrics.RoutingMetrics;
import io.tributary.routing.queue.BatchAppends;
import io.tributary.sessionqueue.EntryHeaders;
import io.tributary.sessionqueue.QueueAppender;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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

/**
 * Routes a batch of publish records. First the messages for persistent sessions are appended to their session
 * queues (Redis) and the appends awaited; then one record per interested transport node goes to that node's downlink
 * topic, with the publish's key, value and headers unchanged (in order) plus, when share groups chose members on
 * that node, {@link RecordHeaders#SHARED_TARGETS} naming them, and, when queued clients are connected there,
 * {@link RecordHeaders#QUEUED} waking them up; then every record's acknowledgement is awaited. Only then may the
 * batch's offsets be committed: a router that dies in between routes the batch again (at least once towards nodes;
 * queues skip what they already hold). The acknowledgements of one batch are awaited while the next is read
 * ({@link #send}).
 */
public final class DownlinkFanout {

    /** The span of routing one publish: read from the publish topic to its queue and downlink writes acknowledged. */
    public static final String SPAN = "route";

    private static final AttributeKey<Long> NODES = AttributeKey.longKey("tributary.downlink_nodes");
    private static final AttributeKey<Long> QUEUED = AttributeKey.longKey("tributary.queued_sessions");

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
    private final QueueAppender queues;
    private final Duration queueTimeout;
    private final BooleanSupplier running;
    private final HopTracing tracing;

    public DownlinkFanout(
            Producer<byte[], byte[]> producer,
            DeliveryPlanner planner,
            DownlinkTopicCache downlinkTopics,
            RoutingMetrics metrics,
            Duration produceTimeout,
            QueueAppender queues,
            Duration queueTimeout,
            BooleanSupplier running,
            HopTracing tracing) {
        this.tracing = tracing;
        this.producer = producer;
        this.queues = queues;
        this.queueTimeout = queueTimeout;
        this.planner = planner;
        this.downlinkTopics = downlinkTopics;
        this.metrics = metrics;
        this.produceTimeout = produceTimeout;
        this.running = running;
    }

    /**
     * Appends the batch's messages for persistent sessions to their queues and waits for Redis; then sends the
     * downlink records (each naming the queued clients of its node) without waiting for their acknowledgements: the
     * caller reads the next batch and brings the feed up to date while they come, and awaits them with
     * {@link InFlight#await()} before it routes that batch. The producer is idempotent, so the next batch's records
     * follow these on every downlink partition.
     *
     * @throws DeliveryFailedException when an append was not acknowledged, a record could not be sent, or the service
     *         is stopping
     */
    public InFlight send(ConsumerRecords<byte[], byte[]> batch, long polledAtNanos) {
        List<Routed> routed = new ArrayList<>(batch.count());
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> offsets;
        try {
            offsets = send(batch, routed, sends);
        } catch (RuntimeException e) {
            endHops(routed, e);
            throw e;
        }
        return new InFlight(batch, polledAtNanos, offsets, routed, sends);
    }

    /** A batch whose downlink records are sent; its offsets may be committed once {@link #await()} returned them. */
    public final class InFlight {

        private final ConsumerRecords<byte[], byte[]> batch;
        private final long polledAtNanos;
        private final Map<TopicPartition, OffsetAndMetadata> offsets;
        private final List<Routed> routed;
        private final List<Future<RecordMetadata>> sends;

        private InFlight(
                ConsumerRecords<byte[], byte[]> batch,
                long polledAtNanos,
                Map<TopicPartition, OffsetAndMetadata> offsets,
                List<Routed> routed,
                List<Future<RecordMetadata>> sends) {
            this.batch = batch;
            this.polledAtNanos = polledAtNanos;
            this.offsets = offsets;
            this.routed = routed;
            this.sends = sends;
        }

        /**
         * Waits for every downlink record of the batch to be acknowledged.
         *
         * @return the offsets to commit: per partition, the offset after the batch's last record
         * @throws DeliveryFailedException when a record was not acknowledged (or the service is stopping)
         */
        public Map<TopicPartition, OffsetAndMetadata> await() {
            try {
                awaitAcknowledgements(sends);
            } catch (RuntimeException e) {
                endHops(routed, e);
                throw e;
            }
            endHops(routed, null);
            return offsets;
        }

        /** The publishes of the batch, to read again when it failed. */
        public ConsumerRecords<byte[], byte[]> batch() {
            return batch;
        }

        /** When the batch was polled ({@link System#nanoTime()}). */
        public long polledAtNanos() {
            return polledAtNanos;
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> send(
            ConsumerRecords<byte[], byte[]> batch, List<Routed> routed, List<Future<RecordMetadata>> sends) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        BatchAppends appends = new BatchAppends(queues);
        int withoutTopic = 0;
        for (ConsumerRecord<byte[], byte[]> publish : batch) {
            offsets.put(
                    new TopicPartition(publish.topic(), publish.partition()),
                    new OffsetAndMetadata(publish.offset() + 1));
            if (publish.key() == null) {
                withoutTopic++;
                continue;
            }
            // Before the queue entries and downlink records copy the headers: the route span becomes their parent.
            Hop hop = tracing.continueTrace(SPAN, SpanKind.CONSUMER, publish.headers());
            String topic = new String(publish.key(), StandardCharsets.UTF_8);
            String publisher = RecordHeaders.readString(publish.headers(), RecordHeaders.CLIENT_ID);
            int qos = RecordHeaders.readQos(publish.headers());
            DeliveryPlan plan = planner.plan(publish.partition(), topic, qos, publisher);
            List<BatchAppends.Ref> own = new ArrayList<>(plan.queued().size());
            byte[] encodedHeaders = plan.queued().isEmpty() ? null : EntryHeaders.encode(publish.headers());
            for (DeliveryPlan.QueueTarget target : plan.queued()) {
                own.add(appends.add(target.clientId(), publish, encodedHeaders, target.sharedFilters()));
            }
            routed.add(new Routed(publish, plan, own, hop));
        }
        if (withoutTopic > 0) {
            metrics.dropped(RoutingMetrics.DROP_NO_TOPIC, withoutTopic);
        }
        awaitAppends(appends);
        int unknownNodes = 0;
        for (Routed r : routed) {
            Map<String, Map<String, Long>> queuedByNode = queuedByNode(r);
            r.hop.count(QUEUED, r.appends.size()).count(NODES, r.plan.nodes().size());
            for (Map.Entry<String, List<SharedTargets.Target>> node :
                    r.plan.nodes().entrySet()) {
                String downlink = TopicNames.downlink(node.getKey());
                if (!downlinkTopics.exists(downlink)) {
                    unknownNodes++;
                    continue;
                }
                sends.add(
                        send(downlink, r.publish, node.getValue(), queuedByNode.getOrDefault(node.getKey(), Map.of())));
            }
        }
        if (unknownNodes > 0) {
            metrics.dropped(RoutingMetrics.DROP_UNKNOWN_NODE, unknownNodes);
        }
        return offsets;
    }

    /**
     * Tells each node that a persistent session is now connected there (client id to node): the node reads the
     * session's queue. Not awaited: the producer retries, and a wake-up that still fails leaves the messages in the
     * queue, read at the client's next wake-up or connection, not lost.
     */
    public void wakeArrivals(Map<String, String> arrivals) {
        for (Map.Entry<String, String> arrival : arrivals.entrySet()) {
            String downlink = TopicNames.downlink(arrival.getValue());
            if (!downlinkTopics.exists(downlink)) {
                // The node is gone: its connection is too, and the client's next connection brings a new arrival.
                continue;
            }
            ProducerRecord<byte[], byte[]> wake =
                    new ProducerRecord<>(downlink, null, arrival.getKey().getBytes(StandardCharsets.UTF_8), null);
            wake.headers().add(RecordHeaders.DOWNLINK_TYPE, DownlinkType.WAKE.headerValue());
            try {
                producer.send(wake, (metadata, error) -> {
                    if (error == null) {
                        metrics.wakeSent();
                    } else {
                        metrics.wakeFailed();
                    }
                });
            } catch (KafkaException e) {
                metrics.wakeFailed();
            }
        }
    }

    /**
     * A publish of the batch with its plan, its queue appends (in the order of {@code plan.queued()}) and its route
     * span ({@link Hop#NONE} when not traced).
     */
    private record Routed(
            ConsumerRecord<byte[], byte[]> publish, DeliveryPlan plan, List<BatchAppends.Ref> appends, Hop hop) {}

    /** The route spans end when the batch's appends and downlink records are acknowledged, or when routing failed. */
    private void endHops(List<Routed> routed, RuntimeException failure) {
        if (!tracing.enabled()) {
            return;
        }
        for (Routed r : routed) {
            r.hop.end(failure);
        }
    }

    /**
     * Per node, the queued clients to wake up and where their queue holds the message. A client left out (its queue
     * refused the message or is gone) is served from the record like a non-persistent one while it is online.
     */
    private Map<String, Map<String, Long>> queuedByNode(Routed r) {
        if (r.appends.isEmpty()) {
            // The common case (no persistent session among the targets): nothing to allocate per record.
            return Map.of();
        }
        Map<String, Map<String, Long>> byNode = new HashMap<>();
        for (int i = 0; i < r.appends.size(); i++) {
            DeliveryPlan.QueueTarget target = r.plan.queued().get(i);
            QueueAppender.Appended appended = r.appends.get(i).result();
            switch (appended.status()) {
                case APPENDED, HELD -> metrics.queued(appended.droppedForCount(), appended.droppedForBytes());
                case REPLAYED -> metrics.queueReplaySkipped();
                case REFUSED_FULL -> metrics.queueDropped(appended.droppedForCount(), appended.droppedForBytes());
                case NO_SESSION -> metrics.dropped(RoutingMetrics.DROP_NO_QUEUE, 1);
            }
            if (target.nodeId() != null && appended.seq() > 0) {
                byNode.computeIfAbsent(target.nodeId(), n -> new LinkedHashMap<>())
                        .put(target.clientId(), appended.seq());
            }
        }
        return byNode;
    }

    private void awaitAppends(BatchAppends appends) {
        if (appends.isEmpty()) {
            return;
        }
        CompletableFuture<Void> all = appends.send();
        long deadline = System.nanoTime() + queueTimeout.toNanos() + TimeUnit.SECONDS.toNanos(1);
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !running.getAsBoolean()) {
                throw new DeliveryFailedException(
                        running.getAsBoolean()
                                ? "session queue appends not answered within " + queueTimeout
                                : "stopping before the session queue appends were answered",
                        null);
            }
            try {
                all.get(Math.min(WAIT_SLICE_MS, TimeUnit.NANOSECONDS.toMillis(left) + 1), TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                // Check for stop and deadline, then wait again.
            } catch (ExecutionException e) {
                throw new DeliveryFailedException("session queue append failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DeliveryFailedException("interrupted waiting for session queue appends", e);
            }
        }
    }

    private Future<RecordMetadata> send(
            String downlink,
            ConsumerRecord<byte[], byte[]> publish,
            List<SharedTargets.Target> sharedTargets,
            Map<String, Long> queued) {
        Headers headers = new org.apache.kafka.common.header.internals.RecordHeaders(
                publish.headers().toArray());
        // A publisher cannot choose members or queues: headers of those names on the publish are never passed on.
        headers.remove(RecordHeaders.SHARED_TARGETS);
        headers.remove(RecordHeaders.QUEUED);
        headers.remove(RecordHeaders.SOURCE);
        headers.add(RecordHeaders.SOURCE, RecordHeaders.source(publish.partition(), publish.offset()));
        if (!sharedTargets.isEmpty()) {
            headers.add(RecordHeaders.SHARED_TARGETS, SharedTargets.encode(sharedTargets));
        }
        if (!queued.isEmpty()) {
            headers.add(RecordHeaders.QUEUED, QueuedNotice.encode(queued));
        }
        ProducerRecord<byte[], byte[]> delivery =
                new ProducerRecord<>(downlink, null, publish.key(), publish.value(), headers);
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
                    throw new DeliveryFailedException(
                            stopping
                                    ? "stopping before the batch was acknowledged"
                                    : "downlink records not acknowledged within " + produceTimeout,
                            null);
                }
                try {
                    send.get(Math.min(WAIT_SLICE_MS, TimeUnit.NANOSECONDS.toMillis(left) + 1), TimeUnit.MILLISECONDS);
                    break;
                } catch (TimeoutException e) {
                    // Check for stop and deadline, then wait again.
                } catch (ExecutionException e) {
                    throw new DeliveryFailedException(
                            "downlink record not acknowledged: " + e.getCause(), e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new DeliveryFailedException("interrupted waiting for acknowledgements", e);
                }
            }
        }
    }
}
