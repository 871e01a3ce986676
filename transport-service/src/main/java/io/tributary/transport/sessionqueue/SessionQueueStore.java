package io.tributary.transport.sessionqueue;

import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisClient;
import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.lettuce.core.resource.ClientResources;
import io.micrometer.core.instrument.MeterRegistry;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.tributary.common.queue.LuaScripts;
import io.tributary.common.queue.SessionQueueKeys;
import io.tributary.transport.publish.InboundQos2Store;

/**
 * This node's access to the session queues in Redis (written by routing-service, see {@link SessionQueueKeys}).
 * One connection for the process, every command asynchronous: callers get a future completed on a Lettuce thread
 * and hop back to their event loop themselves. It also keeps the packet ids of the session's inbound QoS 2 publishes
 * awaiting PUBREL ({@link InboundQos2Store}), which live and die with the queue's keys.
 */
public final class SessionQueueStore implements AutoCloseable, InboundQos2Store {

    private static final Logger log = LoggerFactory.getLogger(SessionQueueStore.class);
    private static final long CONNECT_RETRY_MS = 1_000;

    /** One stream entry: its sequence and its fields. */
    public record Entry(long seq, Map<String, byte[]> fields) {

        public String text(String field) {
            byte[] value = fields.get(field);
            return value == null ? null : new String(value, StandardCharsets.UTF_8);
        }
    }

    /**
     * @param sentBefore the highest sequence fetched for sending before this fetch: an entry at or below it may
     *                   already have reached the client, so it goes out with DUP = 1
     */
    public record Fetched(long sentBefore, List<Entry> entries) {
    }

    /**
     * Reads up to ARGV[2] entries from sequence ARGV[1] on and raises {@code sent} to the last one, in one step, so
     * that an entry handed out here is known to be possibly delivered by whoever reads the queue next.
     */
    private static final byte[] FETCH = """
            local entries = redis.call('XRANGE', KEYS[1], '0-' .. ARGV[1], '+', 'COUNT', ARGV[2])
            local sent = tonumber(redis.call('HGET', KEYS[2], 'sent') or '0')
            if #entries > 0 then
              local last = tonumber(string.sub(entries[#entries][1], 3))
              if last > sent then
                redis.call('HSET', KEYS[2], 'sent', last)
              end
            end
            return {sent, entries}""".getBytes(StandardCharsets.UTF_8);
    /** Sent by digest (EVALSHA): the body only when Redis does not have it cached. */
    private static final String FETCH_DIGEST = LuaScripts.digest(FETCH);

    /** PUBREC of a queued QoS 2 message: the message leaves the queue, its packet id now awaits PUBCOMP. */
    private static final byte[] RELEASE = """
            redis.call('XDEL', KEYS[1], ARGV[1])
            redis.call('SADD', KEYS[2], ARGV[2])
            return 1""".getBytes(StandardCharsets.UTF_8);

    /**
     * Adds an inbound QoS 2 packet id only while the session is persistent: a record arriving after session-service
     * deleted the session's keys must not leave an id behind that a later session would take for a duplicate.
     */
    private static final byte[] RECORD_INBOUND = """
            if redis.call('HEXISTS', KEYS[1], 'created') == 0 then
              return 0
            end
            redis.call('SADD', KEYS[2], ARGV[1])
            return 1""".getBytes(StandardCharsets.UTF_8);

    /** Lettuce's own resources, with command latencies recorded as Micrometer timers (lettuce.command.*). */
    private final ClientResources resources;
    private final RedisClient client;
    /** Null until the first connect succeeded; from then on Lettuce keeps it connected. */
    private volatile StatefulRedisConnection<byte[], byte[]> connection;
    private final ScheduledExecutorService connector = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "session-queue-redis-connect");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger connects = new AtomicInteger();
    /** Failed first-connect attempts, touched only by the constructor and then the connector thread. */
    private int connectFailures;
    private volatile Runnable reconnected = () -> { };

    public SessionQueueStore(String redisUrl, Duration commandTimeout, MeterRegistry meters) {
        RedisURI uri = RedisURI.create(redisUrl);
        uri.setTimeout(commandTimeout);
        this.resources = ClientResources.builder().commandLatencyRecorder(new MicrometerCommandLatencyRecorder(
                meters, MicrometerOptions.builder().histogram(true).build())).build();
        this.client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .socketOptions(SocketOptions.builder().connectTimeout(commandTimeout).build())
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                .build());
        client.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress address) {
                if (connects.incrementAndGet() > 1) {
                    reconnected.run();
                }
            }
        });
        // Connected here, on the starting thread, so the node serves persistent sessions as soon as it listens; if
        // Redis is not there yet, a background thread keeps trying. Never on first use: that is an event loop.
        connect();
    }

    private void connect() {
        try {
            connection = client.connect(ByteArrayCodec.INSTANCE);
            if (connectFailures > 0) {
                log.info("Connected to Redis for the session queues after {} failed attempts", connectFailures);
            }
        } catch (RuntimeException e) {
            if (connectFailures++ == 0) {
                log.warn("Cannot connect to Redis for the session queues, retrying every {} ms: {}",
                        CONNECT_RETRY_MS, e.toString());
            }
            if (!connector.isShutdown()) {
                connector.schedule(this::connect, CONNECT_RETRY_MS, TimeUnit.MILLISECONDS);
            }
        }
    }

    /**
     * Told after the connection to Redis was re-established. Redis may have come back with less than it had (a crash
     * loses up to a second of writes with {@code appendfsync everysec}; a failover to a lagging replica too): sequences
     * may then be handed out again, so readers must read their queues from the start.
     */
    public void onReconnected(Runnable listener) {
        this.reconnected = listener;
    }

    /** The connection; until the first connect succeeded, every command fails at once like one to a Redis down. */
    private StatefulRedisConnection<byte[], byte[]> connection() {
        StatefulRedisConnection<byte[], byte[]> c = connection;
        if (c == null) {
            throw new RedisConnectionException("not connected to Redis yet (connecting in the background)");
        }
        return c;
    }

    /** Up to {@code count} entries from {@code fromSeq} on, in order. */
    public CompletableFuture<Fetched> fetch(String clientId, long fromSeq, int count) {
        byte[][] keys = keys(SessionQueueKeys.queue(clientId), SessionQueueKeys.meta(clientId));
        byte[][] args = {bytes(Long.toString(fromSeq)), bytes(Integer.toString(count))};
        return call(() -> {
            RedisAsyncCommands<byte[], byte[]> redis = connection().async();
            return redis.<List<Object>>evalsha(FETCH_DIGEST, ScriptOutputType.MULTI, keys, args).toCompletableFuture()
                    .exceptionallyCompose(e -> LuaScripts.isNoScript(e)
                            // Redis restarted or flushed its scripts: the body loads it again.
                            ? redis.<List<Object>>eval(FETCH, ScriptOutputType.MULTI, keys, args).toCompletableFuture()
                            : CompletableFuture.failedFuture(e))
                    .thenApply(SessionQueueStore::fetched);
        });
    }



    /** The client acknowledged (or will never get) the message at {@code seq}: it leaves the queue. */
    public CompletableFuture<Long> remove(String clientId, long seq) {
        return call(() -> connection().async().xdel(bytes(SessionQueueKeys.queue(clientId)),
                SessionQueueKeys.entryId(seq)).toCompletableFuture());
    }

    /** The client acknowledged the messages at {@code seqs}: they leave the queue in one command. */
    public CompletableFuture<Long> removeAll(String clientId, List<Long> seqs) {
        String[] ids = new String[seqs.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = SessionQueueKeys.entryId(seqs.get(i));
        }
        return call(() -> connection().async().xdel(bytes(SessionQueueKeys.queue(clientId)), ids)
                .toCompletableFuture());
    }

    /** PUBREC of the QoS 2 message at {@code seq}, sent with {@code packetId}. */
    public CompletableFuture<Object> released(String clientId, long seq, int packetId) {
        return call(() -> connection().async().eval(RELEASE, ScriptOutputType.INTEGER,
                keys(SessionQueueKeys.queue(clientId), SessionQueueKeys.released(clientId)),
                bytes(SessionQueueKeys.entryId(seq)), bytes(Integer.toString(packetId))).toCompletableFuture()
                .thenApply(r -> r));
    }

    /** PUBCOMP for {@code packetId}: the QoS 2 exchange is over. */
    public CompletableFuture<Long> completed(String clientId, int packetId) {
        return call(() -> connection().async().srem(bytes(SessionQueueKeys.released(clientId)),
                bytes(Integer.toString(packetId))).toCompletableFuture());
    }

    /** Packet ids whose PUBREL is still owed to the client. */
    public CompletableFuture<List<Integer>> releasedPacketIds(String clientId) {
        return call(() -> connection().async().smembers(bytes(SessionQueueKeys.released(clientId)))
                .toCompletableFuture()
                .thenApply(SessionQueueStore::packetIds));
    }

    @Override
    public CompletableFuture<List<Integer>> inboundQos2Ids(String clientId) {
        return call(() -> connection().async().smembers(bytes(SessionQueueKeys.inboundQos2(clientId)))
                .toCompletableFuture()
                .thenApply(SessionQueueStore::packetIds));
    }

    @Override
    public CompletableFuture<Boolean> recordInboundQos2(String clientId, int packetId) {
        return call(() -> connection().async().<Long>eval(RECORD_INBOUND, ScriptOutputType.INTEGER,
                keys(SessionQueueKeys.meta(clientId), SessionQueueKeys.inboundQos2(clientId)),
                bytes(Integer.toString(packetId))).toCompletableFuture().thenApply(r -> r == 1L));
    }

    @Override
    public CompletableFuture<String> sessionIncarnation(String clientId) {
        return call(() -> connection().async().hget(bytes(SessionQueueKeys.meta(clientId)),
                bytes(SessionQueueKeys.CREATED)).toCompletableFuture()
                .thenApply(b -> b == null ? null : new String(b, java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Override
    public CompletableFuture<Long> releaseInboundQos2(String clientId, int packetId) {
        return call(() -> connection().async().srem(bytes(SessionQueueKeys.inboundQos2(clientId)),
                bytes(Integer.toString(packetId))).toCompletableFuture());
    }

    private interface Call<T> {
        CompletableFuture<T> run();
    }

    private static <T> CompletableFuture<T> call(Call<T> call) {
        try {
            return call.run();
        } catch (RuntimeException e) {
            // Connecting failed (Redis down): the caller's retry logic sees an ordinary failed future.
            return CompletableFuture.failedFuture(e);
        }
    }

    private static byte[][] keys(String... keys) {
        byte[][] out = new byte[keys.length][];
        for (int i = 0; i < keys.length; i++) {
            out[i] = bytes(keys[i]);
        }
        return out;
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
            Map<String, byte[]> fields = new java.util.HashMap<>(flat.size());
            for (int i = 0; i + 1 < flat.size(); i += 2) {
                fields.put(new String((byte[]) flat.get(i), StandardCharsets.UTF_8), (byte[]) flat.get(i + 1));
            }
            entries.add(new Entry(seq, fields));
        }
        return new Fetched(sent, entries);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        connector.shutdownNow();
        StatefulRedisConnection<byte[], byte[]> c = connection;
        if (c != null) {
            c.close();
        }
        client.shutdown();
        resources.shutdown();
    }
}
