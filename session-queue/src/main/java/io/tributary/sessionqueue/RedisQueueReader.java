package io.tributary.sessionqueue;

import static io.tributary.sessionqueue.RedisCalls.bytes;
import static io.tributary.sessionqueue.RedisCalls.call;
import static io.tributary.sessionqueue.RedisCalls.keys;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.tributary.redis.ManagedRedisConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@link QueueReader} and {@link InboundQos2Store} over one Redis connection for the process; every command
 * asynchronous, never blocking the caller (transport's callers are Netty event loops).
 */
public final class RedisQueueReader implements QueueReader, InboundQos2Store {

    private final ManagedRedisConnection<byte[], byte[]> redis;

    public RedisQueueReader(ManagedRedisConnection<byte[], byte[]> redis) {
        this.redis = redis;
    }

    @Override
    public void onReconnected(Runnable listener) {
        redis.onReconnected(listener);
    }

    @Override
    public CompletableFuture<Fetched> fetch(String clientId, long fromSeq, int count) {
        byte[][] keys = keys(SessionQueueKeys.queue(clientId), SessionQueueKeys.meta(clientId));
        byte[][] args = {bytes(Long.toString(fromSeq)), bytes(Integer.toString(count))};
        return call(() -> LuaScript.FETCH
                .<byte[], byte[], List<Object>>run(commands(), ScriptOutputType.MULTI, keys, args)
                .thenApply(RedisQueueReader::fetched));
    }

    @Override
    public CompletableFuture<Long> remove(String clientId, long seq) {
        return removeAll(clientId, List.of(seq));
    }

    /** In a script rather than one XDEL: the entries' bytes leave the queue's byte counter in the same step. */
    @Override
    public CompletableFuture<Long> removeAll(String clientId, List<Long> seqs) {
        if (seqs.isEmpty()) {
            return CompletableFuture.completedFuture(0L);
        }
        byte[][] ids = new byte[seqs.size()][];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = bytes(SessionQueueKeys.entryId(seqs.get(i)));
        }
        byte[][] keys = keys(SessionQueueKeys.queue(clientId), SessionQueueKeys.meta(clientId));
        return call(() -> LuaScript.REMOVE.<byte[], byte[], Long>run(commands(), ScriptOutputType.INTEGER, keys, ids));
    }

    @Override
    public CompletableFuture<Object> released(String clientId, long seq, int packetId) {
        return call(() -> LuaScript.RELEASE.<byte[], byte[], Object>run(
                commands(),
                ScriptOutputType.INTEGER,
                keys(
                        SessionQueueKeys.queue(clientId),
                        SessionQueueKeys.released(clientId),
                        SessionQueueKeys.meta(clientId)),
                bytes(SessionQueueKeys.entryId(seq)),
                bytes(Integer.toString(packetId))));
    }

    @Override
    public CompletableFuture<Long> completed(String clientId, int packetId) {
        return call(() -> commands()
                .srem(bytes(SessionQueueKeys.released(clientId)), bytes(Integer.toString(packetId)))
                .toCompletableFuture());
    }

    @Override
    public CompletableFuture<List<Integer>> releasedPacketIds(String clientId) {
        return call(() -> commands()
                .smembers(bytes(SessionQueueKeys.released(clientId)))
                .toCompletableFuture()
                .thenApply(RedisQueueReader::packetIds));
    }

    @Override
    public CompletableFuture<List<Integer>> inboundQos2Ids(String clientId) {
        return call(() -> commands()
                .smembers(bytes(SessionQueueKeys.inboundQos2(clientId)))
                .toCompletableFuture()
                .thenApply(RedisQueueReader::packetIds));
    }

    @Override
    public CompletableFuture<Boolean> recordInboundQos2(String clientId, int packetId) {
        return call(() -> LuaScript.RECORD_INBOUND_QOS2
                .<byte[], byte[], Long>run(
                        commands(),
                        ScriptOutputType.INTEGER,
                        keys(SessionQueueKeys.meta(clientId), SessionQueueKeys.inboundQos2(clientId)),
                        bytes(Integer.toString(packetId)))
                .thenApply(r -> r == 1L));
    }

    @Override
    public CompletableFuture<String> sessionIncarnation(String clientId) {
        return call(() -> commands()
                .hget(bytes(SessionQueueKeys.meta(clientId)), bytes(SessionQueueKeys.CREATED))
                .toCompletableFuture()
                .thenApply(b -> b == null ? null : new String(b, StandardCharsets.UTF_8)));
    }

    @Override
    public CompletableFuture<Long> releaseInboundQos2(String clientId, int packetId) {
        return call(() -> commands()
                .srem(bytes(SessionQueueKeys.inboundQos2(clientId)), bytes(Integer.toString(packetId)))
                .toCompletableFuture());
    }

    private RedisAsyncCommands<byte[], byte[]> commands() {
        return redis.connection().async();
    }

    private static List<Integer> packetIds(Set<byte[]> members) {
        List<Integer> ids = new ArrayList<>(members.size());
        for (byte[] m : members) {
            try {
                ids.add(Integer.parseInt(new String(m, StandardCharsets.UTF_8)));
            } catch (NumberFormatException e) {
                // not ours; ignore
            }
        }
        ids.sort(null);
        return ids;
    }

    @SuppressWarnings("unchecked")
    private static Fetched fetched(List<Object> reply) {
        long sent = (Long) reply.get(0);
        List<Object> raw = (List<Object>) reply.get(1);
        List<Entry> entries = new ArrayList<>(raw.size());
        for (Object item : raw) {
            List<Object> pair = (List<Object>) item;
            long seq = SessionQueueKeys.seqOf(new String((byte[]) pair.get(0), StandardCharsets.UTF_8));
            List<Object> flat = (List<Object>) pair.get(1);
            Map<String, byte[]> fields = new HashMap<>(flat.size());
            for (int i = 0; i + 1 < flat.size(); i += 2) {
                fields.put(new String((byte[]) flat.get(i), StandardCharsets.UTF_8), (byte[]) flat.get(i + 1));
            }
            entries.add(new Entry(seq, fields));
        }
        return new Fetched(sent, entries);
    }
}
