package io.tributary.routing.queue;

import io.tributary.sessionqueue.QueueAppender;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The session queue appends of one batch of publishes, gathered per queue and publish partition and sent as one
 * {@link QueueAppender#appendAll} each: fewer Redis calls when a client gets several messages of a batch, and
 * each queue's share of the batch appended all or nothing.
 *
 * <p>Used by the routing loop thread for one batch: {@link #add} in offset order per partition, then {@link #send}
 * once, then {@link Ref#result()} after the returned future completed.
 */
public final class BatchAppends {

    private record QueueAndPartition(String clientId, int partition) {}

    private static final class Group {
        final List<QueueAppender.Message> messages = new ArrayList<>(2);
        CompletableFuture<List<QueueAppender.Appended>> outcome;
    }

    /** Where one append's outcome will be. */
    public static final class Ref {
        private final Group group;
        private final int index;

        private Ref(Group group, int index) {
            this.group = group;
            this.index = index;
        }

        /** The outcome; only after the future of {@link #send} completed normally. */
        public QueueAppender.Appended result() {
            return group.outcome.join().get(index);
        }
    }

    private final QueueAppender appender;
    private final Map<QueueAndPartition, Group> groups = new LinkedHashMap<>();

    public BatchAppends(QueueAppender appender) {
        this.appender = appender;
    }

    /** Adds {@code publish} for the queue of {@code clientId}; publishes of one partition must come in offset order. */
    public Ref add(
            String clientId, ConsumerRecord<byte[], byte[]> publish, byte[] encodedHeaders, String sharedFilters) {
        Group group = groups.computeIfAbsent(new QueueAndPartition(clientId, publish.partition()), k -> new Group());
        group.messages.add(new QueueAppender.Message(publish, encodedHeaders, sharedFilters));
        return new Ref(group, group.messages.size() - 1);
    }

    public boolean isEmpty() {
        return groups.isEmpty();
    }

    /** Sends every gathered append; the future completes when all are answered (failed if any failed). */
    public CompletableFuture<Void> send() {
        List<CompletableFuture<?>> all = new ArrayList<>(groups.size());
        for (Map.Entry<QueueAndPartition, Group> e : groups.entrySet()) {
            Group group = e.getValue();
            group.outcome = appender.appendAll(e.getKey().clientId(), e.getKey().partition(), group.messages);
            all.add(group.outcome);
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
    }
}
