package io.tributary.transport.replay;

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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The part of a replay that joins a persistent (queue-backed) session's queue, whose QoS 1/2 messages come from Redis.
 * The session queue reader stops handing out new entries from the SUBSCRIBE on ({@link #pause}); before the end
 * offsets are taken the queue is {@link #hold held}, so routing puts what it appends meanwhile into a hold stream;
 * the QoS 1/2 part of the history goes into the queue ({@link #appendHistory}), each entry with its publish position,
 * skipping what the queue holds already; {@link #release} moves the held entries behind it, dropping those the history
 * has (the seam's duplicates), and the reader goes on. The QoS 0 part goes through the {@link ReplaySeam} as for any
 * connection. Everything but {@link #pause} and {@link #resume} runs on a replay thread and waits for Redis there.
 */
public final class QueueReplay {

    /** History entries per script call: bounded work for Redis, few round trips. */
    static final int BATCH = 100;

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

    /** Event loop: the SUBSCRIBE asks for a replay; the queue reader hands out no new entry until {@link #resume}. */
    void pause(ClientConnection connection) {
        reader.pause(connection);
    }

    /** Event loop: the replay joined the queue (or will not run): the reader goes on. */
    void resume(ClientConnection connection) {
        reader.resume(connection);
    }

    /** Holds the queue; returns the hold's token. Replay thread. */
    String hold(String clientId, long deadlineNanos) {
        String token = UUID.randomUUID().toString();
        QueueHold.Held held = await(hold.hold(clientId, token, holdTtl), deadlineNanos);
        return switch (held) {
            case HELD -> token;
            case BUSY -> throw new IllegalStateException("the session queue is held by another replay");
            case NO_QUEUE -> throw new IllegalStateException("the session has no queue");
        };
    }

    /** Appends the QoS 1/2 history to the held queue, in batches. Replay thread. */
    void appendHistory(String clientId, String token, List<QueueHold.HistoryEntry> entries, long deadlineNanos) {
        for (int from = 0; from < entries.size(); from += BATCH) {
            List<QueueHold.HistoryEntry> batch = entries.subList(from, Math.min(entries.size(), from + BATCH));
            await(hold.appendHistory(clientId, token, batch), deadlineNanos);
        }
    }

    /** Ends the hold: the held entries go behind the history. Replay thread. */
    QueueHold.Released release(String clientId, String token, long deadlineNanos) {
        return await(hold.release(clientId, token, holdTtl), deadlineNanos);
    }

    /** Ends the hold of a failed replay without waiting; if Redis cannot be told, the hold runs out by itself. */
    void releaseQuietly(String clientId, String token) {
        hold.release(clientId, token, holdTtl);
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
