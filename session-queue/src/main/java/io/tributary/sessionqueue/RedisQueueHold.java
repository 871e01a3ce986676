package io.tributary.sessionqueue;

import static io.tributary.sessionqueue.RedisCalls.bytes;
import static io.tributary.sessionqueue.RedisCalls.call;
import static io.tributary.sessionqueue.RedisCalls.keys;

import io.lettuce.core.ScriptOutputType;
import io.tributary.redis.ManagedRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** {@link QueueHold} over one Redis connection; asynchronous, never blocking the caller. */
public final class RedisQueueHold implements QueueHold {

    private static final byte[] EMPTY = new byte[0];

    private final ManagedRedisConnection<byte[], byte[]> redis;

    public RedisQueueHold(ManagedRedisConnection<byte[], byte[]> redis) {
        this.redis = redis;
    }

    /** The queue no longer held by the replay's token: its time ran out, the replay cannot join the queue. */
    public static final class HoldLostException extends RuntimeException {
        HoldLostException(String clientId) {
            super("the hold of the session queue of '" + clientId + "' ran out");
        }
    }

    @Override
    public CompletableFuture<Held> hold(String clientId, String token, Duration ttl) {
        byte[][] keys = keys(
                SessionQueueKeys.hold(clientId),
                SessionQueueKeys.queue(clientId),
                SessionQueueKeys.meta(clientId),
                SessionQueueKeys.covered(clientId),
                SessionQueueKeys.held(clientId));
        return call(() -> LuaScript.HOLD
                .<byte[], byte[], Long>run(
                        redis.connection().async(),
                        ScriptOutputType.INTEGER,
                        keys,
                        bytes(token),
                        bytes(Long.toString(ttl.toMillis())))
                .thenApply(r -> r == 1L ? Held.HELD : r == 0L ? Held.BUSY : Held.NO_QUEUE));
    }

    @Override
    public CompletableFuture<Long> appendHistory(String clientId, String token, List<HistoryEntry> entries) {
        byte[][] keys = keys(
                SessionQueueKeys.hold(clientId),
                SessionQueueKeys.queue(clientId),
                SessionQueueKeys.meta(clientId),
                SessionQueueKeys.covered(clientId));
        byte[][] args = new byte[1 + 4 * entries.size()][];
        args[0] = bytes(token);
        int i = 1;
        for (HistoryEntry e : entries) {
            args[i++] = bytes(SessionQueueKeys.position(e.partition(), e.offset()));
            args[i++] = e.topic();
            args[i++] = e.payload() == null ? EMPTY : e.payload();
            args[i++] = e.encodedHeaders();
        }
        return call(() -> LuaScript.APPEND_HISTORY
                .<byte[], byte[], Long>run(redis.connection().async(), ScriptOutputType.INTEGER, keys, args)
                .thenApply(n -> {
                    if (n < 0) {
                        throw new HoldLostException(clientId);
                    }
                    return n;
                }));
    }

    @Override
    public CompletableFuture<Released> release(
            String clientId,
            String token,
            Duration coveredFor,
            Collection<String> filters,
            Map<Integer, Long> endOffsets) {
        byte[][] keys = keys(
                SessionQueueKeys.hold(clientId),
                SessionQueueKeys.held(clientId),
                SessionQueueKeys.queue(clientId),
                SessionQueueKeys.meta(clientId),
                SessionQueueKeys.covered(clientId));
        return call(() -> LuaScript.RELEASE_HOLD
                .<byte[], byte[], List<Long>>run(
                        redis.connection().async(),
                        ScriptOutputType.MULTI,
                        keys,
                        releaseArgs(token, coveredFor, filters, endOffsets))
                .thenApply(r -> r.get(0) < 0
                        ? new Released(Math.max(1, r.get(1)), 0, 0, 0)
                        : new Released(0, r.get(0), r.get(1), r.get(2))));
    }

    private static byte[][] releaseArgs(
            String token, Duration coveredFor, Collection<String> filters, Map<Integer, Long> endOffsets) {
        List<byte[]> args = new ArrayList<>();
        args.add(token == null ? EMPTY : bytes(token));
        args.add(bytes(Long.toString(Math.max(1, coveredFor.toMillis()))));
        args.add(bytes(Integer.toString(filters.size())));
        filters.forEach(f -> args.add(bytes(f)));
        endOffsets.forEach((partition, end) -> {
            args.add(bytes(Integer.toString(partition)));
            args.add(bytes(Long.toString(end)));
        });
        return args.toArray(byte[][]::new);
    }
}
