package io.tributary.routing.queue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.lettuce.core.ClientOptions;
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
import io.tributary.common.queue.EntryHeaders;
import io.tributary.common.queue.LuaScripts;
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

    /**
     * Appends the messages of one publish partition (in offset order) to one queue: KEYS = queue, meta; ARGV = the
     * partition's field, limit, policy, then five per message (offset, topic, payload, headers, share groups).
     * Returns two numbers per message: sequence and drops (appended), -1 and the last sequence (appended before),
     * -2 and 1 (refused, queue full); or a single 0 when the session has no queue. One call per queue and partition
     * per batch keeps a batch's appends to one queue all-or-nothing, so the per-partition high-water offset that
     * makes them idempotent never runs ahead of an append that failed.
     */
    private static final byte[] APPEND = """
            if redis.call('HEXISTS', KEYS[2], 'created') == 0 then
              return {0}
            end
            local limit = tonumber(ARGV[2])
            local last = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '-1')
            local length = redis.call('XLEN', KEYS[1])
            local out = {}
            for i = 4, #ARGV, 5 do
              local offset = tonumber(ARGV[i])
              if offset <= last then
                out[#out + 1] = -1
                out[#out + 1] = tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')
              else
                last = offset
                redis.call('HSET', KEYS[2], ARGV[1], ARGV[i])
                if length >= limit and ARGV[3] == 'newest' then
                  redis.call('HINCRBY', KEYS[2], 'dropped', 1)
                  out[#out + 1] = -2
                  out[#out + 1] = 1
                else
                  local dropped = 0
                  if length >= limit then
                    dropped = length - limit + 1
                    redis.call('XTRIM', KEYS[1], 'MAXLEN', limit - 1)
                    redis.call('HINCRBY', KEYS[2], 'dropped', dropped)
                    length = limit - 1
                  end
                  local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
                  if ARGV[i + 4] == '' then
                    redis.call('XADD', KEYS[1], '0-' .. seq, 't', ARGV[i + 1], 'p', ARGV[i + 2], 'h', ARGV[i + 3])
                  else
                    redis.call('XADD', KEYS[1], '0-' .. seq, 't', ARGV[i + 1], 'p', ARGV[i + 2], 'h', ARGV[i + 3],
                        'g', ARGV[i + 4])
                  end
                  length = length + 1
                  out[#out + 1] = seq
                  out[#out + 1] = dropped
                end
              end
            end
            return out""".getBytes(StandardCharsets.UTF_8);
    /** The script's SHA-1: it is sent by digest (EVALSHA), its body only when Redis does not have it cached. */
    private static final String APPEND_DIGEST = LuaScripts.digest(APPEND);

    private static final byte[] EMPTY = new byte[0];

    /** Lettuce's own resources, with command latencies recorded as Micrometer timers (lettuce.command.*). */
    private final ClientResources resources;
    private final RedisClient client;
    /** Opened on first use (Redis may still be starting when the service starts); Lettuce reconnects it. */
    private StatefulRedisConnection<byte[], byte[]> connection;
    private final byte[] limit;
    private final byte[] policy;

    public SessionQueueAppender(SessionQueueProperties properties, MeterRegistry meters) {
        RedisURI uri = RedisURI.create(properties.redisUrl());
        uri.setTimeout(properties.commandTimeout());
        this.resources = ClientResources.builder().commandLatencyRecorder(new MicrometerCommandLatencyRecorder(
                meters, MicrometerOptions.builder().histogram(true).build())).build();
        this.client = RedisClient.create(resources, uri);
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

    /** One message for {@link #appendAll}. */
    public record Message(ConsumerRecord<byte[], byte[]> publish, byte[] encodedHeaders, String sharedFilters) {
    }

    /** Appends one publish to the queue of {@code clientId}, encoding the record's headers itself. */
    public CompletableFuture<Appended> append(String clientId, ConsumerRecord<byte[], byte[]> publish,
            String sharedFilters) {
        return appendAll(clientId, publish.partition(),
                List.of(new Message(publish, EntryHeaders.encode(publish.headers()), sharedFilters)))
                .thenApply(all -> all.get(0));
    }

    /**
     * Appends {@code messages}, all from publish partition {@code partition} and in offset order, to the queue of
     * {@code clientId} in one step.
     *
     * @return one outcome per message, in order
     */
    public CompletableFuture<List<Appended>> appendAll(String clientId, int partition, List<Message> messages) {
        byte[][] keys = {bytes(SessionQueueKeys.queue(clientId)), bytes(SessionQueueKeys.meta(clientId))};
        byte[][] args = new byte[3 + 5 * messages.size()][];
        args[0] = bytes(SessionQueueKeys.partitionField(partition));
        args[1] = limit;
        args[2] = policy;
        int i = 3;
        for (Message m : messages) {
            if (m.publish().partition() != partition) {
                throw new IllegalArgumentException("message of partition " + m.publish().partition()
                        + " in an append for partition " + partition);
            }
            args[i++] = bytes(Long.toString(m.publish().offset()));
            args[i++] = m.publish().key();
            args[i++] = m.publish().value() == null ? EMPTY : m.publish().value();
            args[i++] = m.encodedHeaders();
            args[i++] = m.sharedFilters().isEmpty() ? EMPTY : bytes(m.sharedFilters());
        }
        int count = messages.size();
        try {
            RedisAsyncCommands<byte[], byte[]> redis = connection().async();
            return redis.<List<Long>>evalsha(APPEND_DIGEST, ScriptOutputType.MULTI, keys, args).toCompletableFuture()
                    .exceptionallyCompose(e -> LuaScripts.isNoScript(e)
                            // Redis restarted or flushed its scripts: the body loads it again. Safe to send late:
                            // this call holds everything of this batch for this queue and partition.
                            ? redis.<List<Long>>eval(APPEND, ScriptOutputType.MULTI, keys, args).toCompletableFuture()
                            : CompletableFuture.failedFuture(e))
                    .thenApply(reply -> outcomes(reply, count));
        } catch (RuntimeException e) {
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
        resources.shutdown();
    }
}
