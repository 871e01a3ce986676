package io.tributary.sessionqueue;

import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.sync.RedisCommands;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.redis.ManagedRedisConnection;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/** What the byte budget tests read and write: the counter, the bytes the entries really hold, large publishes. */
final class QueueBytes {

    private final RedisCommands<byte[], byte[]> redis;

    QueueBytes(ManagedRedisConnection<byte[], byte[]> binary) {
        this.redis = binary.connection().sync();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A QoS 1 publish on {@code a/b} whose payload is {@code size} bytes. */
    static ConsumerRecord<byte[], byte[]> publish(int partition, long offset, int size) {
        byte[] payload = new byte[size];
        Arrays.fill(payload, (byte) ('a' + (int) (offset % 26)));
        ConsumerRecord<byte[], byte[]> record =
                new ConsumerRecord<>("tributary.publish", partition, offset, bytes("a/b"), payload);
        record.headers().add(new RecordHeader(RecordHeaders.QOS, new byte[] {1}));
        return record;
    }

    /** The bytes one entry of {@link #publish} holds, as the scripts count them: field names and values. */
    static long entrySize(int partition, long offset, int size) {
        ConsumerRecord<byte[], byte[]> p = publish(partition, offset, size);
        return 4L
                + p.key().length
                + size
                + EntryHeaders.encode(p.headers()).length
                + bytes(SessionQueueKeys.position(partition, offset)).length;
    }

    /** A queue of {@code clientId} with nothing in it. */
    void create(String clientId) {
        redis.del(
                bytes(SessionQueueKeys.queue(clientId)),
                bytes(SessionQueueKeys.meta(clientId)),
                bytes(SessionQueueKeys.hold(clientId)),
                bytes(SessionQueueKeys.held(clientId)),
                bytes(SessionQueueKeys.covered(clientId)),
                bytes(SessionQueueKeys.released(clientId)));
        redis.hset(bytes(SessionQueueKeys.meta(clientId)), bytes(SessionQueueKeys.CREATED), bytes("now"));
    }

    /** The queue's byte counter; null when it has none. */
    Long counter(String clientId) {
        byte[] value = redis.hget(bytes(SessionQueueKeys.meta(clientId)), bytes(SessionQueueKeys.BYTES));
        return value == null ? null : Long.parseLong(new String(value, StandardCharsets.UTF_8));
    }

    long dropped(String clientId) {
        byte[] value = redis.hget(bytes(SessionQueueKeys.meta(clientId)), bytes(SessionQueueKeys.DROPPED));
        return value == null ? 0 : Long.parseLong(new String(value, StandardCharsets.UTF_8));
    }

    /** What the queue and hold streams hold, summed from their entries: what the counter must say. */
    long held(String clientId) {
        return sum(SessionQueueKeys.queue(clientId)) + sum(SessionQueueKeys.held(clientId));
    }

    long length(String clientId) {
        return redis.xlen(bytes(SessionQueueKeys.queue(clientId))) + redis.xlen(bytes(SessionQueueKeys.held(clientId)));
    }

    private long sum(String stream) {
        long total = 0;
        for (StreamMessage<byte[], byte[]> m : redis.xrange(bytes(stream), Range.create("-", "+"))) {
            for (var field : m.getBody().entrySet()) {
                total += field.getKey().length + field.getValue().length;
            }
        }
        return total;
    }

    RedisCommands<byte[], byte[]> commands() {
        return redis;
    }
}
