package io.tributary.transport.replay;

import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.Partitioning;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.topic.TopicFilters;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the history a replay delivers from the publish topic, with a short-lived consumer of its own (no group,
 * nothing committed), on a replay thread, never an event loop.
 *
 * <p>The end of the history is the publish topic's end offsets read when {@link #read} starts, which is after the
 * subscriptions were in effect on this node: every record at or past them is routed to this node live (see
 * {@link ReplaySeam}). An exact filter reads the one partition its topic is keyed to; a wildcard reads them all.
 * Each partition is read backwards in growing windows from its end, down to the oldest offset allowed (the
 * {@code replay-from} time or the age limit, by {@code offsetsForTimes}), until it has as many matching records as
 * wanted; the partitions are then merged by record timestamp (each keeps its offset order) and the newest wanted
 * are kept.
 */
final class HistoryReader {

    /**
     * The history of one replay.
     *
     * @param records    matching records, in the order they are delivered
     * @param endOffsets per partition of the publish topic read, the offset the history stops before
     * @param truncated  older matching records in the time range were left out to keep only the newest wanted
     * @param retentionMayHaveCut in some partition read, Kafka has already deleted records (its log start offset is
     *                   past 0) and every record left there is in the time range: deleted ones may have been in it too
     */
    record History(
            List<ConsumerRecord<byte[], byte[]>> records,
            Map<Integer, Long> endOffsets,
            boolean truncated,
            boolean retentionMayHaveCut) {}

    /** The replay took longer than allowed or its connection closed. */
    static final class Abandoned extends RuntimeException {
        Abandoned(String message) {
            super(message);
        }
    }

    private static final int FIRST_WINDOW = 512;
    private static final int MAX_WINDOW = 1 << 20;
    private static final Duration POLL = Duration.ofMillis(200);

    private final KafkaClients kafkaClients;
    private final String clientId;

    HistoryReader(KafkaClients kafkaClients, String clientId) {
        this.kafkaClients = kafkaClients;
        this.clientId = clientId;
    }

    /**
     * @param filters   the subscriptions' topic filters (no shared ones)
     * @param keep      messages wanted at most
     * @param fromMillis oldest publish time wanted
     * @param deadlineNanos when to give up ({@link System#nanoTime})
     * @param cancelled true once nobody waits for the result
     */
    History read(Collection<String> filters, int keep, long fromMillis, long deadlineNanos, BooleanSupplier cancelled) {
        Properties config = new Properties();
        // Exactly-once QoS 2 writes publishes in transactions: a copy a killed node left open is aborted, never
        // replayed.
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        // A history is a range that already exists: never wait at the broker for more. With Kafka's default 500 ms,
        // the fetch the client sends once a partition's window is read through to the log end stayed parked at the
        // broker, and the next partition's fetch (and offset look-ups) queued behind it on the same connection: a
        // wildcard replay-last 3 over the 12 publish partitions of an idle quick start took 3.6-4.6 s.
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "0");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (Consumer<byte[], byte[]> consumer = kafkaClients.consumer(config)) {
            Duration wait = remaining(deadlineNanos);
            int partitionCount =
                    consumer.partitionsFor(TopicNames.PUBLISH, wait).size();
            List<TopicPartition> partitions = partitions(filters, partitionCount);
            // Assigned before the offset look-ups (the client warns about offsets of partitions it does not hold);
            // read one at a time, the others paused.
            consumer.assign(partitions);
            consumer.pause(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, remaining(deadlineNanos));
            Map<TopicPartition, Long> starts = consumer.beginningOffsets(partitions, remaining(deadlineNanos));
            Map<TopicPartition, Long> query = new HashMap<>();
            partitions.forEach(tp -> query.put(tp, fromMillis));
            Map<TopicPartition, OffsetAndTimestamp> fromTime =
                    consumer.offsetsForTimes(query, remaining(deadlineNanos));
            List<Deque<ConsumerRecord<byte[], byte[]>>> perPartition = new ArrayList<>();
            Map<Integer, Long> endOffsets = new HashMap<>();
            boolean retentionMayHaveCut = false;
            for (TopicPartition tp : partitions) {
                long end = ends.get(tp);
                endOffsets.put(tp.partition(), end);
                OffsetAndTimestamp first = fromTime.get(tp);
                long start = starts.get(tp);
                // The oldest record left is already in range and older ones were deleted: nothing says they were not.
                retentionMayHaveCut |= start > 0 && first != null && first.offset() <= start;
                long floor = Math.max(start, first == null ? end : first.offset());
                // One more than wanted: finding it is how a cut history is told from one that fits exactly.
                perPartition.add(newestMatching(consumer, tp, floor, end, keep + 1, filters, deadlineNanos, cancelled));
            }
            List<ConsumerRecord<byte[], byte[]>> merged = mergeByTimestamp(perPartition);
            boolean truncated = merged.size() > keep;
            List<ConsumerRecord<byte[], byte[]>> kept =
                    truncated ? new ArrayList<>(merged.subList(merged.size() - keep, merged.size())) : merged;
            return new History(kept, endOffsets, truncated, retentionMayHaveCut);
        }
    }

    static List<TopicPartition> partitions(Collection<String> filters, int partitionCount) {
        Set<Integer> numbers = new LinkedHashSet<>();
        for (String filter : filters) {
            if (TopicFilters.hasWildcard(filter)) {
                for (int p = 0; p < partitionCount; p++) {
                    numbers.add(p);
                }
            } else {
                numbers.add(Partitioning.partitionFor(filter, partitionCount));
            }
        }
        return numbers.stream()
                .sorted()
                .map(p -> new TopicPartition(TopicNames.PUBLISH, p))
                .toList();
    }

    /** The newest {@code keep} records of {@code [floor, end)} matching a filter, in offset order. */
    private static Deque<ConsumerRecord<byte[], byte[]>> newestMatching(
            Consumer<byte[], byte[]> consumer,
            TopicPartition tp,
            long floor,
            long end,
            int keep,
            Collection<String> filters,
            long deadlineNanos,
            BooleanSupplier cancelled) {
        Deque<ConsumerRecord<byte[], byte[]>> found = new ArrayDeque<>();
        consumer.resume(List.of(tp));
        long hi = end;
        long window = FIRST_WINDOW;
        while (hi > floor && found.size() < keep) {
            long lo = Math.max(floor, hi - window);
            List<ConsumerRecord<byte[], byte[]>> part = new ArrayList<>();
            consumer.seek(tp, lo);
            while (consumer.position(tp, remaining(deadlineNanos)) < hi) {
                if (cancelled.getAsBoolean()) {
                    throw new Abandoned("the connection closed");
                }
                remaining(deadlineNanos);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL).records(tp)) {
                    if (r.offset() >= lo && r.offset() < hi && matches(r, filters)) {
                        part.add(r);
                    }
                }
            }
            for (int i = part.size() - 1; i >= 0; i--) {
                found.addFirst(part.get(i));
            }
            hi = lo;
            window = Math.min(MAX_WINDOW, window * 4);
        }
        consumer.pause(List.of(tp));
        while (found.size() > keep) {
            found.removeFirst();
        }
        return found;
    }

    private static boolean matches(ConsumerRecord<byte[], byte[]> r, Collection<String> filters) {
        if (r.key() == null) {
            return false;
        }
        String topic = new String(r.key(), StandardCharsets.UTF_8);
        for (String filter : filters) {
            if (TopicFilters.matches(filter, topic)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Merges partitions, each in offset order, by record timestamp (ties by partition): a partition's records keep
     * their order whatever their timestamps, so every MQTT topic (one partition) keeps its publish order.
     */
    static List<ConsumerRecord<byte[], byte[]>> mergeByTimestamp(List<Deque<ConsumerRecord<byte[], byte[]>>> parts) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        List<Deque<ConsumerRecord<byte[], byte[]>>> open = new ArrayList<>(parts);
        open.removeIf(Deque::isEmpty);
        while (!open.isEmpty()) {
            Deque<ConsumerRecord<byte[], byte[]>> next = open.get(0);
            for (Deque<ConsumerRecord<byte[], byte[]>> d : open) {
                ConsumerRecord<byte[], byte[]> a = d.peekFirst();
                ConsumerRecord<byte[], byte[]> b = next.peekFirst();
                if (a.timestamp() < b.timestamp()
                        || (a.timestamp() == b.timestamp() && a.partition() < b.partition())) {
                    next = d;
                }
            }
            out.add(next.pollFirst());
            if (next.isEmpty()) {
                open.remove(next);
            }
        }
        return out;
    }

    private static Duration remaining(long deadlineNanos) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new Abandoned("the history was not read within the replay timeout");
        }
        return Duration.ofNanos(left);
    }
}
