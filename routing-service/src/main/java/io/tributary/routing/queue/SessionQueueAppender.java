package io.tributary.routing.queue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.tributary.common.queue.EntryHeaders;
import io.tributary.common.queue.SessionQueueKeys;

/**
 * Appends publishes to session queues in Redis, asynchronously, over one connection: Lettuce pipelines the
 * commands and Redis runs them in order, so the appends of one publish partition reach every queue in offset order.
 *
 * <p>The append script is idempotent per publish partition: it remembers the last offset it appended from each, so a
 * batch routed again after a failure (or by the next owner of the partition) appends nothing twice — QoS 2 stays
 * exactly once. It appends nothing when the session has no queue ({@link SessionQueueKeys#CREATED} missing: the
 * session ended or is not persistent), so a late router cannot recreate the queue of a deleted session.
 */
public final class SessionQueueAppender implements AutoCloseable {

    /** Outcome of one append. {@code seq} is where the message is; 0 when it is not in the queue. */
    public record Appended(Status status, long seq, long dropped) {
    }

    public enum Status {
        /** Appended at {@code seq}; {@code dropped} older messages made room. */
        APPENDED,
        /** Appended before (replayed batch); {@code seq} is the queue's last sequence, a safe wake-up hint. */
        REPLAYED,
        /** Refused: the queue was full and the policy drops the newest. */
        REFUSED_FULL,
        /** No queue: the session is gone or not persistent. */
        NO_SESSION
    }

    private static final byte[] APPEND = """
            if redis.call('HEXISTS', KEYS[2], 'created') == 0 then
              return {0, 0}
            end
            local last = redis.call('HGET', KEYS[2], ARGV[1])
            if last and tonumber(last) >= tonumber(ARGV[2]) then
              return {-1, tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')}
            end
            redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
            local limit = tonumber(ARGV[3])
            local dropped = 0
            local length = redis.call('XLEN', KEYS[1])
            if length >= limit then
              if ARGV[4] == 'newest' then
                redis.call('HINCRBY', KEYS[2], 'dropped', 1)
                return {-2, 1}
              end
              dropped = length - limit + 1
              redis.call('XTRIM', KEYS[1], 'MAXLEN', limit - 1)
              redis.call('HINCRBY', KEYS[2], 'dropped', dropped)
            end
            local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
            if ARGV[8] == '' then
              redis.call('XADD', KEYS[1], '0-' .. seq, 't', ARGV[5], 'p', ARGV[6], 'h', ARGV[7])
            else
              redis.call('XADD', KEYS[1], '0-' .. seq, 't', ARGV[5], 'p', ARGV[6], 'h', ARGV[7], 'g', ARGV[8])
            end
            return {seq, dropped}""".getBytes(StandardCharsets.UTF_8);

    private static final byte[] EMPTY = new byte[0];

    private final RedisClient client;
    /** Opened on first use (Redis may still be starting when the service starts); Lettuce reconnects it. */
    private StatefulRedisConnection<byte[], byte[]> connection;
    private final byte[] limit;
    private final byte[] policy;

    public SessionQueueAppender(SessionQueueProperties properties) {
        RedisURI uri = RedisURI.create(properties.redisUrl());
        uri.setTimeout(properties.commandTimeout());
        this.client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .socketOptions(SocketOptions.builder().connectTimeout(properties.commandTimeout()).build())
                // While Redis is down appends fail at once; the batch is retried, and Kafka keeps the publishes.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(properties.commandTimeout()))
                .build());
        this.limit = bytes(Integer.toString(properties.limit()));
        this.policy = bytes(properties.fullPolicy().scriptArgument());
    }

    private synchronized StatefulRedisConnection<byte[], byte[]> connection() {
        if (connection == null) {
            connection = client.connect(ByteArrayCodec.INSTANCE);
        }
        return connection;
    }

    /** As {@link #append(String, ConsumerRecord, byte[], String)}, encoding the record's headers itself. */
    public CompletableFuture<Appended> append(String clientId, ConsumerRecord<byte[], byte[]> publish,
            String sharedFilters) {
        return append(clientId, publish, EntryHeaders.encode(publish.headers()), sharedFilters);
    }

    /**
     * Appends {@code publish} to the queue of {@code clientId}.
     *
     * @param encodedHeaders {@link EntryHeaders#encode} of the record's headers, made once per record however many
     *                       queues it goes to
     * @param sharedFilters  the share groups ({@code $share/g/f}, U+0000-separated) that chose this client, or empty
     */
    public CompletableFuture<Appended> append(String clientId, ConsumerRecord<byte[], byte[]> publish,
            byte[] encodedHeaders, String sharedFilters) {
        byte[][] keys = {bytes(SessionQueueKeys.queue(clientId)), bytes(SessionQueueKeys.meta(clientId))};
        byte[][] args = {
            bytes(SessionQueueKeys.partitionField(publish.partition())),
            bytes(Long.toString(publish.offset())),
            limit,
            policy,
            publish.key(),
            publish.value() == null ? EMPTY : publish.value(),
            encodedHeaders,
            sharedFilters.isEmpty() ? EMPTY : bytes(sharedFilters)};
        try {
            return connection().async().<List<Long>>eval(APPEND, ScriptOutputType.MULTI, keys, args)
                    .toCompletableFuture()
                    .thenApply(SessionQueueAppender::outcome);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static Appended outcome(List<Long> reply) {
        long first = reply.get(0);
        long second = reply.get(1);
        if (first > 0) {
            return new Appended(Status.APPENDED, first, second);
        }
        if (first == -1) {
            return new Appended(Status.REPLAYED, second, 0);
        }
        if (first == -2) {
            return new Appended(Status.REFUSED_FULL, 0, 1);
        }
        return new Appended(Status.NO_SESSION, 0, 0);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            connection.close();
        }
        client.shutdown();
    }
}
