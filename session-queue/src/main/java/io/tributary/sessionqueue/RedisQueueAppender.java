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
    private final byte[] budgetArgument;
    private final byte[] policy;

    /**
     * @param limit      most messages one queue holds
     * @param limitBytes most bytes one queue holds (its entries' fields, {@link SessionQueueKeys#BYTES}); a message
     *                   larger than this is refused whatever the policy
     * @param fullPolicy which message is dropped when a new one would take a queue past either limit
     */
    public RedisQueueAppender(
            ManagedRedisConnection<byte[], byte[]> redis, int limit, long limitBytes, QueueFullPolicy fullPolicy) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1: " + limit);
        }
        // Lua numbers are doubles: integers stay exact up to 2^53, far beyond any Redis.
        if (limitBytes < 1 || limitBytes > (1L << 53)) {
            throw new IllegalArgumentException("limitBytes must be from 1 to 2^53: " + limitBytes);
        }
        this.redis = redis;
        this.limit = limit;
        this.limitArgument = bytes(Integer.toString(limit));
        this.budgetArgument = bytes(Long.toString(limitBytes));
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
        byte[][] args = new byte[4 + 5 * messages.size()][];
        args[0] = bytes(SessionQueueKeys.partitionField(partition));
        args[1] = queueLimit >= limit ? limitArgument : bytes(Integer.toString(queueLimit));
        args[2] = policy;
        args[3] = budgetArgument;
        int i = 4;
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
                out.add(new Appended(Status.NO_SESSION, 0, 0, 0));
            }
            return out;
        }
        for (int i = 0; i < count; i++) {
            out.add(outcome(reply.get(4 * i), reply.get(4 * i + 1), reply.get(4 * i + 2), reply.get(4 * i + 3)));
        }
        return out;
    }

    /** One message's four numbers of append.lua's reply: kind, sequence, drops, drops by the byte budget. */
    private static Appended outcome(long kind, long seq, long dropped, long droppedForBytes) {
        Status status = switch ((int) kind) {
            case 1 -> Status.APPENDED;
            case 2 -> Status.REPLAYED;
            case 3 -> Status.HELD;
            case 4 -> Status.REFUSED_FULL;
            default -> throw new IllegalStateException("append.lua answered kind " + kind);
        };
        return new Appended(status, seq, dropped, droppedForBytes);
    }
}
