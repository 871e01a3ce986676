package io.tributary.transport.replay;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;
import io.tributary.common.concurrent.DaemonThreads;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.sessionqueue.QueueHold;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.Disconnector;
import io.tributary.transport.connection.LiveSeam;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.connection.SubscriptionOptions;
import io.tributary.transport.delivery.LiveGate;
import io.tributary.transport.delivery.OutboundDelivery;
import io.tributary.transport.metrics.TransportMetrics;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the replays of this node: decides whether a SUBSCRIBE's request may run, reads its history on a replay
 * thread ({@link HistoryReader}), joins it to live traffic ({@link ReplaySeam}) and sends it through
 * {@link OutboundDelivery} as fast as the subscriber takes it: QoS 1/2 messages only into free in-flight slots,
 * QoS 0 only while the socket is writable, so a replay never overflows the limits that protect the node, and
 * resumes when an acknowledgement or a drained socket makes room. Event-loop work is bounded per task.
 */
public final class Replays implements LiveGate {

    private static final Logger log = LoggerFactory.getLogger(Replays.class);
    private static final int SENT_PER_TASK = 256;

    private final ReplayProperties limits;
    private final OutboundDelivery delivery;
    private final Disconnector disconnector;
    private final TransportMetrics metrics;
    private final HistoryReader reader;
    private final QueueReplay queueReplay;
    /** Live messages held per connection behind its history at most; beyond, the client is disconnected. */
    private final int maxHeld;

    private final AtomicInteger running = new AtomicInteger();
    private final ExecutorService threads;

    public Replays(
            String nodeId,
            KafkaClients kafkaClients,
            ReplayProperties limits,
            int maxHeld,
            OutboundDelivery delivery,
            Disconnector disconnector,
            TransportMetrics metrics) {
        this(nodeId, kafkaClients, limits, maxHeld, delivery, disconnector, metrics, null);
    }

    /** @param queueReplay joins replays to session queues; null: queue-backed sessions are refused a replay */
    public Replays(
            String nodeId,
            KafkaClients kafkaClients,
            ReplayProperties limits,
            int maxHeld,
            OutboundDelivery delivery,
            Disconnector disconnector,
            TransportMetrics metrics,
            QueueReplay queueReplay) {
        this.queueReplay = queueReplay;
        this.limits = limits;
        this.maxHeld = maxHeld;
        this.delivery = delivery;
        this.disconnector = disconnector;
        this.metrics = metrics;
        this.reader = new HistoryReader(kafkaClients, "tributary-replay-" + nodeId);
        this.threads = Executors.newFixedThreadPool(limits.maxConcurrent(), DaemonThreads.numbered("replay-"));
        delivery.onReplay(this, this::pump);
    }

    /**
     * The verdict on a SUBSCRIBE's replay properties for this connection, or null when it asks for none. A granted
     * verdict holds one of the node's replay slots: {@link #start} or {@link #release} gives it back.
     */
    public ReplayRequest.Verdict verdict(ClientConnection connection, MqttProperties properties) {
        ReplayRequest.Verdict verdict = ReplayRequest.of(properties, limits, System.currentTimeMillis());
        if (verdict == null || verdict.refused()) {
            return verdict;
        }
        if (connection.queueBacked() && queueReplay == null) {
            // Its QoS 1/2 messages come from its session queue, and this node cannot join a replay to it.
            return new ReplayRequest.Verdict(
                    null,
                    ReplayRequest.NOT_ACCEPTED,
                    "replay is offered to sessions that end with the connection (Session Expiry Interval 0)");
        }
        if (replaying(connection)) {
            return new ReplayRequest.Verdict(
                    null, ReplayRequest.QUOTA_EXCEEDED, "a replay is already running on this connection");
        }
        if (running.incrementAndGet() > limits.maxConcurrent()) {
            running.decrementAndGet();
            return new ReplayRequest.Verdict(
                    null,
                    ReplayRequest.QUOTA_EXCEEDED,
                    "this node runs " + limits.maxConcurrent() + " replays already");
        }
        if (connection.queueBacked() && !queueReplay.begin(connection)) {
            running.decrementAndGet();
            return new ReplayRequest.Verdict(
                    null, ReplayRequest.QUOTA_EXCEEDED, "a replay is already joining this session's queue");
        }
        return verdict;
    }

    /** Gives back the slot of a granted verdict that will not run (no filter of the SUBSCRIBE was granted). */
    public void release(ClientConnection connection) {
        running.decrementAndGet();
        if (connection.queueBacked() && queueReplay != null) {
            queueReplay.abandon(connection);
        }
    }

    /**
     * Starts the replay of a granted verdict. Called on the event loop in the task that put {@code granted} into the
     * local index, before any live delivery for them can run there.
     *
     * @param granted the subscriptions the SUBSCRIBE made, with their options (none shared)
     */
    public void start(ClientConnection connection, Map<String, SubscriptionOptions> granted, ReplayRequest request) {
        List<LiveSeam> seams = connection.replaysCreated();
        seams.removeIf(s -> granted.keySet().stream().anyMatch(s::forget));
        ReplaySeam seam = new ReplaySeam(new LinkedHashSet<>(granted.keySet()));
        seams.add(seam);
        long now = System.currentTimeMillis();
        long from = Math.max(
                now - limits.maxAge().toMillis(),
                request.from() == null ? 0 : request.from().toEpochMilli());
        int keep = request.last() > 0 ? request.last() : limits.maxMessages();
        long deadline = System.nanoTime() + limits.timeout().toNanos();
        metrics.replay("started");
        log.debug("Replay for '{}' of {} ({}) starts", connection.clientId(), granted.keySet(), request);
        boolean queued = connection.queueBacked();
        try {
            threads.execute(() -> {
                try {
                    // Held before the end offsets are taken: whatever routing appends from then on waits behind
                    // the history.
                    String token = queued ? queueReplay.awaitHold(connection, deadline) : null;
                    HistoryReader.History history = reader.read(
                            granted.keySet(),
                            keep,
                            from,
                            deadline,
                            () -> !connection.channel().isActive());
                    boolean mark = request.last() == 0 && (history.truncated() || history.retentionMayHaveCut());
                    List<ConsumerRecord<byte[], byte[]>> direct = history.records();
                    boolean markedInQueue = false;
                    if (token != null) {
                        QueueReplay.Split split =
                                QueueReplay.split(history.records(), granted, connection.clientId(), mark);
                        queueReplay.appendHistory(connection.clientId(), token, split.queued(), deadline);
                        QueueHold.Released released = queueReplay.release(
                                connection.clientId(), token, granted.keySet(), history.endOffsets(), deadline);
                        log.info(
                                "Replay for '{}': {} QoS 1/2 messages joined to its session queue; {} routed meanwhile"
                                        + " moved behind them, {} of those already in the history",
                                connection.clientId(),
                                split.queued().size(),
                                released.moved(),
                                released.dropped());
                        direct = split.qos0();
                        markedInQueue = split.markedInQueue();
                    }
                    List<OutboundMessage> messages =
                            HistoryMessages.of(direct, granted, connection.clientId(), System.currentTimeMillis());
                    if (mark) {
                        markTruncated(messages, markedInQueue, connection.clientId(), request, history.truncated());
                    }
                    connection.channel().eventLoop().execute(() -> {
                        if (queued) {
                            queueReplay.end(connection);
                        }
                        historyRead(connection, seam, messages, history.endOffsets());
                    });
                } catch (RuntimeException e) {
                    if (queued) {
                        queueReplay.abandonHold(connection);
                    }
                    executeOrDrop(connection, () -> {
                        if (queued) {
                            queueReplay.end(connection);
                        }
                        failed(connection, seam, e);
                    });
                } finally {
                    running.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException e) {
            running.decrementAndGet();
            if (queued) {
                queueReplay.abandon(connection);
            }
            failed(connection, seam, e);
        }
    }

    private static void executeOrDrop(ClientConnection connection, Runnable task) {
        try {
            connection.channel().eventLoop().execute(task);
        } catch (RejectedExecutionException e) {
            // The event loop is shutting down with its connections.
        }
    }

    private void historyRead(
            ClientConnection connection,
            ReplaySeam seam,
            List<OutboundMessage> messages,
            Map<Integer, Long> endOffsets) {
        if (!connection.channel().isActive()) {
            return;
        }
        int covered = seam.historyRead(messages, endOffsets);
        metrics.replayedMessages(messages.size());
        log.info(
                "Replay for '{}' of {}: {} messages up to publish offsets {}; {} live copies already in them",
                connection.clientId(),
                seam.filters(),
                messages.size(),
                endOffsets,
                covered);
        pump(connection);
    }

    private void failed(ClientConnection connection, ReplaySeam seam, Exception e) {
        metrics.replay("failed");
        List<LiveSeam> seams = connection.replays();
        if (seams != null) {
            seams.remove(seam);
        }
        if (connection.channel().isActive()) {
            // The subscriptions are live, but the history asked for cannot be delivered whole: the client learns it
            // and can subscribe again from the last message it got.
            disconnector.disconnect(
                    connection.channel(),
                    Disconnect.IMPLEMENTATION_SPECIFIC_ERROR,
                    null,
                    "replay failed: " + e.getMessage());
        }
    }

    /** Whether a replay of this connection has not delivered all of its history and held messages yet. */
    private static boolean replaying(ClientConnection connection) {
        List<LiveSeam> seams = connection.replays();
        if (seams == null) {
            return false;
        }
        for (LiveSeam seam : seams) {
            if (!seam.done()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean intercept(ClientConnection connection, OutboundMessage message, int partition, long offset) {
        for (LiveSeam seam : connection.replays()) {
            switch (seam.onLive(message.topic(), partition, offset)) {
                case PASS -> {
                    continue;
                }
                case DROP -> {
                    return true;
                }
                case HOLD -> {
                    if (seam.held() >= maxHeld) {
                        metrics.dropped("replay_held_full");
                        disconnector.disconnect(
                                connection.channel(),
                                Disconnect.QUOTA_EXCEEDED,
                                null,
                                "more than " + maxHeld + " live messages waiting behind the replay");
                        return true;
                    }
                    seam.hold(message, partition, offset);
                    return true;
                }
            }
        }
        return false;
    }

    /** Sends what the replays of {@code connection} have ready, as far as it has room. Event loop. */
    public void pump(ClientConnection connection) {
        List<LiveSeam> seams = connection.replays();
        if (seams == null || !connection.channel().isActive()) {
            return;
        }
        for (LiveSeam seam : seams) {
            int budget = SENT_PER_TASK;
            OutboundMessage next;
            while ((next = seam.peek()) != null) {
                if (!room(connection, next)) {
                    return;
                }
                if (budget-- == 0) {
                    // Room left and more to send: the rest in a later task, so other connections get their turn.
                    connection.channel().eventLoop().execute(() -> pump(connection));
                    return;
                }
                seam.take();
                delivery.deliver(connection, next);
            }
        }
    }

    private boolean room(ClientConnection connection, OutboundMessage next) {
        return next.qos() == 0 ? connection.channel().isWritable() : delivery.freeSlots(connection) > 0;
    }

    /** The subscription to {@code filter} ended: a finished replay's seam no longer drops its late copies. */
    public static void forget(ClientConnection connection, String filter) {
        List<LiveSeam> seams = connection.replays();
        if (seams != null) {
            seams.removeIf(s -> s.forget(filter));
            if (seams.isEmpty()) {
                connection.clearReplays();
            }
        }
    }

    /**
     * A {@code replay-from} matched more than the node delivers, or Kafka's retention may already have deleted part of
     * its time range: its first message says so, so the client knows the history it got may not reach back to the
     * time it asked for ({@code replay-last} gets the last N still in Kafka, which is what it asked for).
     */
    private void markTruncated(
            List<OutboundMessage> messages,
            boolean markedInQueue,
            String clientId,
            ReplayRequest request,
            boolean overLimit) {
        metrics.replay(overLimit ? "truncated" : "retention_cut");
        if (overLimit) {
            log.info(
                    "Replay for '{}' from {} matched more than {} messages: the newest {} are delivered, the first"
                            + " marked {}",
                    clientId,
                    request.from(),
                    limits.maxMessages(),
                    limits.maxMessages(),
                    ReplayRequest.TRUNCATED);
        } else {
            log.info(
                    "Replay for '{}' from {}: Kafka's retention has deleted records that may have been in that time"
                            + " range; what is left is delivered, the first marked {}",
                    clientId,
                    request.from(),
                    ReplayRequest.TRUNCATED);
        }
        if (!markedInQueue) {
            HistoryMessages.markFirst(messages);
        }
    }

    /** Stops the replay threads; a replay still reading ends with its connection. */
    public void close() {
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
