package io.tributary.transport.qos2;

import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.PollLoop;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.retry.Backoff;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Which QoS 2 publishes are stored, as the committed markers on {@link TopicNames#QOS2_MARKERS} say. Followed on its
 * own thread from offset 0 with isolation read_committed (no consumer group: every node needs every marker).
 *
 * <p>{@link #stored} answers only once the follower has read past the topic's high watermark as it was when asked,
 * so every transaction that wrote a marker before the question is decided by then: committed (the marker counts) or
 * aborted (it does not) — a transaction a killed node left open is aborted by the broker after the transaction
 * timeout, or at once when the node restarts under its id. Only re-sent PUBLISHes (DUP = 1) the node has no PUBREC
 * record of ask, so the wait is paid by recovery, not by the normal flow.
 */
public final class Qos2MarkerIndex extends PollLoop implements AutoCloseable {

    private static final TopicPartition PARTITION = new TopicPartition(TopicNames.QOS2_MARKERS, 0);
    private static final Duration POLL = Duration.ofMillis(100);

    private record Question(long highWatermark, String key, byte[] digest, CompletableFuture<Boolean> answer) {}

    private final KafkaClients kafkaClients;
    private final String nodeId;
    private final Admin admin;
    /** Key to digest of every committed marker not yet tombstoned. Touched by the follower thread only. */
    private final Map<String, byte[]> stored = new ConcurrentHashMap<>();

    private final Queue<Question> questions = new ConcurrentLinkedQueue<>();
    private volatile Consumer<byte[], byte[]> consumer;

    public Qos2MarkerIndex(KafkaClients kafkaClients, String nodeId, Admin admin) {
        super("qos2-markers-" + nodeId, true, Backoff.fixed(Duration.ofMillis(500)), Duration.ofSeconds(10));
        this.kafkaClients = kafkaClients;
        this.nodeId = nodeId;
        this.admin = admin;
    }

    public void start() {
        Properties config = new Properties();
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "tributary-transport-qos2-markers-" + nodeId);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        consumer = kafkaClients.consumer(config);
        consumer.assign(List.of(PARTITION));
        consumer.seekToBeginning(List.of(PARTITION));
        startLoop(consumer);
    }

    /**
     * Completes with whether the publish with this {@link Qos2Markers#key key} and {@link Qos2Markers#digest digest}
     * is stored, once every transaction
     * begun before the call is decided; completes exceptionally when Kafka cannot say.
     */
    public CompletableFuture<Boolean> stored(String key, byte[] digest) {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        admin.listOffsets(
                        Map.of(PARTITION, OffsetSpec.latest()), new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED))
                .partitionResult(PARTITION)
                .whenComplete((info, failure) -> {
                    if (failure != null) {
                        answer.completeExceptionally(failure);
                    } else {
                        questions.add(new Question(info.offset(), key, digest, answer));
                    }
                });
        return answer;
    }

    /** Markers this node knows as stored (published and not yet released); for the gauge. */
    public int size() {
        return stored.size();
    }

    @Override
    protected void pollOnce() {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
            String key = new String(record.key(), StandardCharsets.UTF_8);
            if (record.value() == null) {
                stored.remove(key);
            } else {
                stored.put(key, record.value());
            }
        }
        answer(consumer.position(PARTITION));
    }

    @Override
    protected void onLoopEnd() {
        for (Question q : questions) {
            q.answer().completeExceptionally(new IllegalStateException("the node is shutting down"));
        }
        consumer.close(Duration.ofSeconds(5));
    }

    private void answer(long position) {
        for (Iterator<Question> it = questions.iterator(); it.hasNext(); ) {
            Question q = it.next();
            if (position >= q.highWatermark()) {
                it.remove();
                q.answer().complete(java.util.Arrays.equals(stored.get(q.key()), q.digest()));
            }
        }
    }

    @Override
    public void close() {
        stop();
    }
}
