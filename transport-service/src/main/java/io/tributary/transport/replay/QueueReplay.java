package io.tributary.transport.replay;

import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.topic.TopicFilters;
import io.tributary.sessionqueue.EntryHeaders;
import io.tributary.sessionqueue.QueueHold;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.connection.SubscriptionOptions;
import io.tributary.transport.publish.PublishRecords;
import io.tributary.transport.sessionqueue.SessionQueueReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The part of a replay that joins a persistent (queue-backed) session's queue, whose QoS 1/2 messages come from Redis.
 * At the SUBSCRIBE ({@link #begin}), before its subscriptions can take effect, the session queue reader stops handing
 * out new entries and the queue is held: routing puts what it appends from then on into a hold stream. The QoS 1/2
 * part of the history goes into the queue ({@link #appendHistory}), each entry with its publish position, taking the
 * place of a not yet sent entry at the same position and leaving out one already sent; {@link #release} moves the held
 * entries behind it, dropping those the history has (the seam's duplicates) or did not ask for (below the end offsets
 * on a replayed topic); the reader goes on ({@link #end}). The QoS 0 part goes through the {@link ReplaySeam} as for
 * any connection. {@link #awaitHold}, {@link #appendHistory} and {@link #release} run on a replay thread and wait for
 * Redis there; the others run on the event loop.
 */
public final class QueueReplay {

    /** History entries per script call: bounded work for Redis, few round trips. */
    static final int BATCH = 100;

    private static final AttributeKey<CompletableFuture<String>> PENDING =
            AttributeKey.valueOf("tributary.replayQueueHold");

    private final QueueHold hold;
    private final SessionQueueReader reader;
    private final Duration holdTtl;

    /** @param holdTtl how long a hold lasts when its replay dies (at least twice the replay timeout) */
    public QueueReplay(QueueHold hold, SessionQueueReader reader, Duration holdTtl) {
        this.hold = hold;
        this.reader = reader;
        this.holdTtl = holdTtl;
    }

    /**
     * The history split by where it goes: the QoS 1/2 part into the queue, the QoS 0 part to the seam.
     * {@code markedInQueue}: the history's first message is queued and carries the truncation mark.
     */
    record Split(
            List<QueueHold.HistoryEntry> queued, List<ConsumerRecord<byte[], byte[]>> qos0, boolean markedInQueue) {}

    /** How long a hold lasts when its replay dies: twice the replay timeout, so no running replay loses its hold. */
    public static Duration holdTtl(ReplayProperties replay) {
        return replay.timeout().multipliedBy(2);
    }

    /**
     * Event loop, at the SUBSCRIBE, before its subscriptions can take effect: the queue reader hands out no new entry
     * until {@link #end}, and the queue is held (the script goes out on the node's Redis connection ahead of the
     * subscription's way through session-service and the feed to the routers, so nothing routed for it comes before).
     *
     * @return false when a replay of this connection holds its queue already
     */
    boolean begin(ClientConnection connection) {
        Attribute<CompletableFuture<String>> pending = connection.channel().attr(PENDING);
        if (pending.get() != null) {
            return false;
        }
        reader.pause(connection);
        String token = UUID.randomUUID().toString();
        pending.set(hold.hold(connection.clientId(), token, holdTtl).thenApply(held -> switch (held) {
            case HELD -> token;
            case BUSY -> throw new IllegalStateException("the session queue is held by another replay");
            case NO_QUEUE -> throw new IllegalStateException("the session has no queue");
        }));
        return true;
    }

    /** Replay thread: the token of the hold {@link #begin} asked for, once Redis has granted it. */
    String awaitHold(ClientConnection connection, long deadlineNanos) {
        return await(connection.channel().attr(PENDING).get(), deadlineNanos);
    }

    /** Event loop: the replay is over (its history joined, or failed): the reader goes on. */
    void end(ClientConnection connection) {
        connection.channel().attr(PENDING).set(null);
        reader.resume(connection);
    }

    /** The replay will not run, or failed: its hold ends as soon as it is granted. Any thread. */
    void abandonHold(ClientConnection connection) {
        CompletableFuture<String> held = connection.channel().attr(PENDING).get();
        if (held != null) {
            held.thenAccept(token -> hold.release(connection.clientId(), token, holdTtl));
        }
    }

    /** Event loop: the SUBSCRIBE's replay will not run (no filter granted, or the SUBSCRIBE failed). */
    void abandon(ClientConnection connection) {
        abandonHold(connection);
        end(connection);
    }

    /** Appends the QoS 1/2 history to the held queue, in batches. Replay thread. */
    void appendHistory(String clientId, String token, List<QueueHold.HistoryEntry> entries, long deadlineNanos) {
        for (int from = 0; from < entries.size(); from += BATCH) {
            List<QueueHold.HistoryEntry> batch = entries.subList(from, Math.min(entries.size(), from + BATCH));
            await(hold.appendHistory(clientId, token, batch), deadlineNanos);
        }
    }

    /**
     * Ends the hold: the held entries go behind the history, those below the end offsets on a replayed topic are
     * dropped (the history's). Replay thread.
     */
    QueueHold.Released release(
            String clientId, String token, Set<String> filters, Map<Integer, Long> endOffsets, long deadlineNanos) {
        return await(hold.release(clientId, token, holdTtl, filters, endOffsets), deadlineNanos);
    }

    /**
     * Splits the history's records by the QoS a live delivery would give them (the lower of the published and the
     * highest matching granted one; No Local honoured); records no granted subscription takes are left out.
     *
     * @param markFirst the history was cut: its first record says so ({@link ReplayRequest#TRUNCATED})
     */
    static Split split(
            List<ConsumerRecord<byte[], byte[]>> records,
            Map<String, SubscriptionOptions> granted,
            String clientId,
            boolean markFirst) {
        List<QueueHold.HistoryEntry> queued = new ArrayList<>();
        List<ConsumerRecord<byte[], byte[]>> qos0 = new ArrayList<>();
        boolean first = true;
        boolean marked = false;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            int qos = deliveredQos(r, granted, clientId);
            if (qos < 0) {
                continue;
            }
            if (qos == 0) {
                qos0.add(r);
            } else {
                org.apache.kafka.common.header.Headers headers = r.headers();
                if (first && markFirst) {
                    headers = new org.apache.kafka.common.header.internals.RecordHeaders(headers.toArray());
                    headers.add(new RecordHeader(
                            RecordHeaders.USER_PROPERTY_PREFIX + ReplayRequest.TRUNCATED,
                            "true".getBytes(StandardCharsets.UTF_8)));
                    marked = true;
                }
                queued.add(new QueueHold.HistoryEntry(
                        r.partition(), r.offset(), r.key(), r.value(), EntryHeaders.encode(headers)));
            }
            first = false;
        }
        return new Split(queued, qos0, marked);
    }

    private static int deliveredQos(
            ConsumerRecord<byte[], byte[]> r, Map<String, SubscriptionOptions> granted, String clientId) {
        String topic = new String(r.key(), StandardCharsets.UTF_8);
        String publisher = RecordHeaders.readString(r.headers(), RecordHeaders.CLIENT_ID);
        int qos = -1;
        for (Map.Entry<String, SubscriptionOptions> e : granted.entrySet()) {
            SubscriptionOptions o = e.getValue();
            if (TopicFilters.matches(e.getKey(), topic) && !(o.noLocal() && clientId.equals(publisher))) {
                qos = Math.max(qos, o.qos());
            }
        }
        return qos < 0 ? -1 : Math.min(qos, PublishRecords.qosOf(r.headers()));
    }

    private static <T> T await(CompletableFuture<T> future, long deadlineNanos) {
        try {
            return future.get(Math.max(1, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "the session queue could not be joined: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the session queue did not answer in time", e);
        }
    }
}
