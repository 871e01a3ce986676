package io.tributary.transport.sessionqueue;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.kafka.tracing.Hop;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.sessionqueue.EntryHeaders;
import io.tributary.sessionqueue.QueueHold;
import io.tributary.sessionqueue.QueueReader;
import io.tributary.sessionqueue.SessionQueueKeys;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.ConnectionRegistry;
import io.tributary.transport.connection.OutboundMessage;
import io.tributary.transport.index.LocalSubscriptions;
import io.tributary.transport.metrics.TransportMetrics;
import io.tributary.transport.publish.PublishRecords;
import io.tributary.transport.trace.PublishTracing;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.header.Headers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a persistent session's QoS 1/2 messages from its session queue, in queue order: at CONNECT it re-sends the
 * PUBRELs still owed, then reads the queue from its start (what was queued while the client was away, and what an
 * earlier connection left unacknowledged, re-sent with DUP = 1 and its original packet id), then whatever routing
 * appends and announces in {@code tributary.queued} wake-ups. Reads are sized by the free in-flight slots, so a
 * client that stops acknowledging stops the reading and the queue waits in Redis, bounded by its limit.
 *
 * <p>An entry goes out only if the connection's ACL lets it read the entry's topic now ({@link QueuedReadCheck}):
 * what was queued under an earlier ACL is dropped, not delivered.
 *
 * <p>Every method runs on the connection's event loop; Redis answers are handed back to it.
 *
 * <p>With tracing on, a traced entry gets a {@code deliver} span (as a live delivery does, in {@code DownlinkConsumer})
 * under the route span its headers carry, from the entry's read to its PUBLISH written to the connection.
 */
public final class SessionQueueReader {

    private static final Logger log = LoggerFactory.getLogger(SessionQueueReader.class);
    private static final int MAX_FETCH = 100;
    private static final long RETRY_MIN_MS = 200;
    private static final long RETRY_MAX_MS = 5_000;
    private static final AttributeKey<Long> QUEUE_SEQ = AttributeKey.longKey("tributary.queue.seq");

    private final QueueReader store;
    /** Null when the node joins no replay to a queue. */
    private final DeadHoldRelease deadHolds;

    private final LocalSubscriptions subscriptions;
    private final QueueDelivery delivery;
    private final TransportMetrics metrics;
    private final QueuedReadCheck readCheck;
    private final HopTracing tracing;

    public SessionQueueReader(
            QueueReader store,
            LocalSubscriptions subscriptions,
            QueueDelivery delivery,
            TransportMetrics metrics,
            ConnectionRegistry registry,
            HopTracing tracing) {
        this(store, null, Duration.ZERO, subscriptions, delivery, metrics, registry, tracing);
    }

    /**
     * @param hold    the replays' holds of session queues ({@code replay.QueueReplay}); null when the node joins no
     *                replay to a queue
     * @param holdTtl how long a replay's hold lasts at most
     */
    public SessionQueueReader(
            QueueReader store,
            QueueHold hold,
            Duration holdTtl,
            LocalSubscriptions subscriptions,
            QueueDelivery delivery,
            TransportMetrics metrics,
            ConnectionRegistry registry,
            HopTracing tracing) {
        this.store = store;
        this.deadHolds = hold == null ? null : new DeadHoldRelease(hold, holdTtl);
        this.tracing = tracing;
        store.onReconnected(() -> {
            log.info("Reconnected to Redis: reading every session queue of this node from its start again");
            for (ClientConnection connection : registry.all()) {
                if (connection.queueBacked()) {
                    connection.channel().eventLoop().execute(() -> rewind(connection));
                }
            }
        });
        this.subscriptions = subscriptions;
        this.delivery = delivery;
        this.metrics = metrics;
        this.readCheck = new QueuedReadCheck(metrics);
        delivery.onSlotFreed(this::refill);
    }

    /** After CONNACK of a persistent session. */
    public void start(ClientConnection connection) {
        QueueCursor cursor = QueueCursor.of(connection);
        if (cursor == null) {
            return;
        }
        cursor.moreMayExist = true;
        log.debug("Queue of '{}': start", connection.clientId());
        store.releasedPacketIds(connection.clientId())
                .whenComplete((ids, error) -> connection.channel().eventLoop().execute(() -> {
                    if (error != null) {
                        retryLater(connection, "reading owed PUBRELs", error, () -> start(connection));
                        return;
                    }
                    if (!connection.channel().isActive()) {
                        return;
                    }
                    cursor.failures = 0;
                    for (int packetId : ids) {
                        delivery.resendRelease(connection, packetId);
                    }
                    cursor.started = true;
                    if (deadHolds != null) {
                        deadHolds.release(connection, () -> wake(connection, Long.MAX_VALUE));
                    }
                    fetch(connection);
                }));
    }

    /**
     * A replay is joining its history to the queue: entries already handed out go on, no new one is handed out until
     * {@link #resume}.
     */
    public void pause(ClientConnection connection) {
        QueueCursor cursor = QueueCursor.of(connection);
        if (cursor != null) {
            cursor.paused = true;
        }
    }

    /** The replay's history is in the queue (or the replay ended): read on. */
    public void resume(ClientConnection connection) {
        QueueCursor cursor = QueueCursor.of(connection);
        if (cursor == null || !cursor.paused) {
            return;
        }
        cursor.paused = false;
        cursor.moreMayExist = true;
        fetch(connection);
    }

    /**
     * Routing appended to this client's queue up to at least {@code seq} ({@code Long.MAX_VALUE}: it does not say,
     * read whatever is there).
     */
    public void wake(ClientConnection connection, long seq) {
        QueueCursor cursor = QueueCursor.of(connection);
        if (cursor == null) {
            return;
        }
        log.debug(
                "Queue of '{}': wake to {} (last {}, fetching {}, started {})",
                connection.clientId(),
                seq,
                cursor.lastSeq,
                cursor.fetching,
                cursor.started);
        if (seq <= cursor.lastSeq) {
            return;
        }
        if (cursor.fetching) {
            cursor.wokenDuringFetch = true;
            return;
        }
        cursor.moreMayExist = true;
        fetch(connection);
    }

    /**
     * Reads the queue from its start again: what is still in it and not in flight is sent again (DUP = 1 where it
     * was handed out before), nothing appended meanwhile is skipped even if its sequence was handed out twice.
     */
    private void rewind(ClientConnection connection) {
        QueueCursor cursor = QueueCursor.of(connection);
        cursor.generation++;
        cursor.lastSeq = 0;
        cursor.moreMayExist = true;
        cursor.fetching = false;
        fetch(connection);
    }

    /** An in-flight slot of {@code connection} was freed. */
    private void refill(ClientConnection connection) {
        if (connection.queueBacked()) {
            fetch(connection);
        }
    }

    private void fetch(ClientConnection connection) {
        QueueCursor cursor = QueueCursor.of(connection);
        if (!cursor.started
                || cursor.paused
                || cursor.fetching
                || cursor.retryScheduled
                || !connection.channel().isActive()
                || !cursor.moreMayExist) {
            return;
        }
        int room = Math.min(MAX_FETCH, delivery.freeSlots(connection));
        if (room <= 0) {
            return;
        }
        cursor.fetching = true;
        cursor.wokenDuringFetch = false;
        int generation = cursor.generation;
        log.debug(
                "Queue of '{}': fetch {} from {} (generation {})",
                connection.clientId(),
                room,
                cursor.lastSeq + 1,
                generation);
        store.fetch(connection.clientId(), cursor.lastSeq + 1, room)
                .whenComplete((fetched, error) -> connection
                        .channel()
                        .eventLoop()
                        .execute(() -> {
                            if (generation != cursor.generation) {
                                // Rewound meanwhile: the rewind started a fetch of its own.
                                return;
                            }
                            cursor.fetching = false;
                            if (error != null) {
                                retryLater(connection, "reading the session queue", error, () -> fetch(connection));
                                return;
                            }
                            cursor.failures = 0;
                            log.debug(
                                    "Queue of '{}': fetched {} ({}..{}), sent before {}, woken {}, active {}",
                                    connection.clientId(),
                                    fetched.entries().size(),
                                    fetched.entries().isEmpty()
                                            ? 0
                                            : fetched.entries().get(0).seq(),
                                    fetched.entries().isEmpty()
                                            ? 0
                                            : fetched.entries()
                                                    .get(fetched.entries().size() - 1)
                                                    .seq(),
                                    fetched.sentBefore(),
                                    cursor.wokenDuringFetch,
                                    connection.channel().isActive());
                            if (!connection.channel().isActive()) {
                                return;
                            }
                            // A short read reached the end as of now: wait for a wake-up, unless one came while
                            // reading.
                            cursor.moreMayExist = fetched.entries().size() == room || cursor.wokenDuringFetch;
                            cursor.wokenDuringFetch = false;
                            if (handOut(connection, fetched)) {
                                fetch(connection);
                            }
                        }));
    }

    /** @return false when it stopped at a packet id still in use (reading resumes when a slot is freed) */
    private boolean handOut(ClientConnection connection, QueueReader.Fetched fetched) {
        QueueCursor cursor = QueueCursor.of(connection);
        for (QueueReader.Entry entry : fetched.entries()) {
            int packetId = SessionQueueKeys.packetIdOf(entry.seq());
            if (connection.outbound().inFlight(packetId)) {
                // An older message with the same packet id is still unacknowledged (the client holds back one ack
                // while acknowledging 32767 later ones): wait for it, keep the order.
                cursor.moreMayExist = true;
                log.debug(
                        "Queue of '{}': entry {} waits for packet id {}", connection.clientId(), entry.seq(), packetId);
                return false;
            }
            cursor.lastSeq = entry.seq();
            Traced traced = toMessage(connection, entry);
            if (traced == null) {
                log.debug("Queue of '{}': entry {} removed undelivered", connection.clientId(), entry.seq());
                store.remove(connection.clientId(), entry.seq());
                continue;
            }
            OutboundMessage message = traced.message();
            try {
                if (message.qos() == 0) {
                    // Downgraded by the subscription: nothing to acknowledge, so it leaves the queue once written.
                    delivery.deliver(connection, message);
                    store.remove(connection.clientId(), entry.seq());
                } else {
                    if (entry.seq() <= fetched.sentBefore()) {
                        message.markDuplicate();
                    }
                    delivery.sendQueued(connection, message, packetId);
                }
                traced.hop().end();
            } catch (RuntimeException e) {
                traced.hop().end(e);
                throw e;
            }
        }
        return true;
    }

    /** A queue entry as the connection receives it, with its deliver span ({@link Hop#NONE} when not traced). */
    private record Traced(OutboundMessage message, Hop hop) {}

    /** The entry as this connection receives it; null when it must not be delivered (not allowed by the ACL, expired, unsubscribed). */
    private Traced toMessage(ClientConnection connection, QueueReader.Entry entry) {
        String topic = entry.text(SessionQueueKeys.FIELD_TOPIC);
        byte[] payload = entry.fields().get(SessionQueueKeys.FIELD_PAYLOAD);
        Headers headers;
        try {
            headers = EntryHeaders.decode(entry.fields().get(SessionQueueKeys.FIELD_HEADERS));
        } catch (IllegalArgumentException e) {
            log.warn(
                    "Skipping malformed entry {} of the session queue of client '{}': {}",
                    entry.seq(),
                    connection.clientId(),
                    e.getMessage());
            metrics.dropped("queue_entry_malformed");
            return null;
        }
        if (topic == null || payload == null) {
            metrics.dropped("queue_entry_malformed");
            return null;
        }
        if (!readCheck.admits(connection, QueueCursor.of(connection), entry.seq(), topic)) {
            return null;
        }
        // Before the delivery properties are read: an MQTT 5 subscriber gets the deliver span as its parent.
        Hop hop = tracing.continueTrace(PublishTracing.DELIVER_SPAN, SpanKind.CONSUMER, headers);
        MqttProperties properties = PublishRecords.deliveryProperties(headers, System.currentTimeMillis());
        if (properties == null) {
            metrics.dropped("expired");
            hop.end();
            return null;
        }
        String shared = entry.text(SessionQueueKeys.FIELD_SHARED);
        List<String> sharedFilters = shared == null ? List.of() : Arrays.asList(shared.split("\u0000"));
        String publisher = RecordHeaders.readString(headers, RecordHeaders.CLIENT_ID);
        LocalSubscriptions.Match match = subscriptions.matchOne(connection, topic, publisher, sharedFilters);
        if (match == null) {
            metrics.dropped("queue_unsubscribed");
            hop.end();
            return null;
        }
        int qos = Math.min(PublishRecords.qosOf(headers), match.qos());
        boolean retain = RecordHeaders.readFlag(headers, RecordHeaders.RETAIN) && match.retainAsPublished();
        OutboundMessage message = new OutboundMessage(topic, payload, qos, retain, properties, match.subscriptionIds());
        message.queueSeq(entry.seq());
        return new Traced(
                message, hop.attribute(PublishTracing.MQTT_TOPIC, topic).count(QUEUE_SEQ, entry.seq()));
    }

    private void retryLater(ClientConnection connection, String what, Throwable error, Runnable retry) {
        QueueCursor cursor = QueueCursor.of(connection);
        if (!connection.channel().isActive() || cursor.retryScheduled) {
            return;
        }
        cursor.failures++;
        long delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS << Math.min(5, cursor.failures - 1));
        if (cursor.failures == 1) {
            log.warn(
                    "Redis failed {} for client '{}', retrying every {}..{} ms: {}",
                    what,
                    connection.clientId(),
                    RETRY_MIN_MS,
                    RETRY_MAX_MS,
                    error.toString());
        }
        metrics.sessionQueueFailure();
        cursor.retryScheduled = true;
        connection
                .channel()
                .eventLoop()
                .schedule(
                        () -> {
                            cursor.retryScheduled = false;
                            retry.run();
                        },
                        delay,
                        TimeUnit.MILLISECONDS);
    }
}
