package io.tributary.sessionqueue;

import static io.tributary.sessionqueue.RedisCalls.bytes;
import static io.tributary.sessionqueue.RedisCalls.keys;

import io.lettuce.core.ScriptOutputType;
import io.tributary.redis.ManagedRedisConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** {@link QueueAppender} over one Redis connection (Lettuce pipelines the calls; Redis runs them in order). */
public final class RedisQueueAppender implements QueueAppender {

    private static final byte[] EMPTY = new byte[0];

    private final ManagedRedisConnection<byte[], byte[]> redis;
    private final int limit;
    private final byte[] limitArgument;
    private final byte[] policy;

    /**
     * @param limit      most messages one queue holds
     * @param fullPolicy which message is dropped when a queue holds {@code limit} messages
     */
    public RedisQueueAppender(ManagedRedisConnection<byte[], byte[]> redis, int limit, QueueFullPolicy fullPolicy) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1: " + limit);
        }
        this.redis = redis;
        this.limit = limit;
        this.limitArgument = bytes(Integer.toString(limit));
        this.policy = bytes(fullPolicy.scriptArgument());
    }

    @Override
    public CompletableFuture<List<Appended>> appendAll(
            String clientId, int partition, List<Message> messages, int queueLimit) {
        if (queueLimit < 1) {
            throw new IllegalArgumentException("a queue limit is at least 1: " + queueLimit);
        }
        byte[][] keys = {
            bytes(SessionQueueKeys.queue(clientId)),
            bytes(SessionQueueKeys.meta(clientId)),
            bytes(SessionQueueKeys.hold(clientId)),
            bytes(SessionQueueKeys.held(clientId)),
            bytes(SessionQueueKeys.covered(clientId))
        };
        byte[][] args = new byte[3 + 5 * messages.size()][];
        args[0] = bytes(SessionQueueKeys.partitionField(partition));
        args[1] = queueLimit >= limit ? limitArgument : bytes(Integer.toString(queueLimit));
        args[2] = policy;
        int i = 3;
        for (Message m : messages) {
            if (m.publish().partition() != partition) {
                throw new IllegalArgumentException(
                        "message of partition " + m.publish().partition() + " in an append for partition " + partition);
            }
            args[i++] = bytes(Long.toString(m.publish().offset()));
            args[i++] = m.publish().key();
            args[i++] = m.publish().value() == null ? EMPTY : m.publish().value();
            args[i++] = m.encodedHeaders();
            args[i++] = m.sharedFilters().isEmpty() ? EMPTY : bytes(m.sharedFilters());
        }
        int count = messages.size();
        try {
            return LuaScript.APPEND
                    .<byte[], byte[], List<Long>>run(redis.connection().async(), ScriptOutputType.MULTI, keys, args)
                    .thenApply(reply -> outcomes(reply, count));
        } catch (RuntimeException e) {
            // Not connected (Redis down): an ordinary failed append, the batch is routed again.
            return CompletableFuture.failedFuture(e);
        }
    }

    private static List<Appended> outcomes(List<Long> reply, int count) {
        List<Appended> out = new ArrayList<>(count);
        if (reply.size() == 1) {
            for (int i = 0; i < count; i++) {
                out.add(new Appended(Status.NO_SESSION, 0, 0));
            }
            return out;
        }
        for (int i = 0; i < count; i++) {
            out.add(outcome(reply.get(2 * i), reply.get(2 * i + 1)));
        }
        return out;
    }

    private static Appended outcome(long first, long second) {
        if (first > 0) {
            return new Appended(Status.APPENDED, first, second);
        }
        if (first == -1) {
            return new Appended(Status.REPLAYED, second, 0);
        }
        if (first == -3) {
            return new Appended(Status.HELD, second, 0);
        }
        if (first == -2) {
            return new Appended(Status.REFUSED_FULL, 0, 1);
        }
        return new Appended(Status.NO_SESSION, 0, 0);
    }
}
