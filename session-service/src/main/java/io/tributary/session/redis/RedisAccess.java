package io.tributary.session.redis;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.redis.RedisClientFactory;
import io.tributary.redis.RedisFutures;
import io.tributary.redis.RedisSettings;
import io.tributary.session.config.SessionServiceProperties;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The process's one Redis connection (presence, session queues), made by redis-support's
 * {@link RedisClientFactory}: connected at start, or in the background while Redis is not there; while Redis is down
 * commands fail at once instead of queueing, so callers decide what a failure means.
 */
@Component
public class RedisAccess implements AutoCloseable {

    private final ManagedRedisConnection<String, String> redis;

    public RedisAccess(SessionServiceProperties properties, MeterRegistry meters) {
        this.redis = RedisClientFactory.open(
                RedisSettings.of(
                        properties.redis().url().toString(), properties.redis().commandTimeout(), "tributary-session"),
                StringCodec.UTF8,
                meters);
    }

    /** The connection itself, for the session queues' lifecycle (session-queue's {@code RedisQueueAdmin}). */
    public ManagedRedisConnection<String, String> connection() {
        return redis;
    }

    public RedisCommands<String, String> commands() {
        return redis.connection().sync();
    }

    /** Commands sent without waiting for each answer: many in a row travel as one pipeline. */
    public RedisAsyncCommands<String, String> async() {
        return redis.connection().async();
    }

    /**
     * Waits for the answers of commands sent through {@link #async()}; the first failure is thrown.
     *
     * @throws io.lettuce.core.RedisException or a subclass, as the synchronous commands would
     */
    public void awaitAll(List<? extends RedisFuture<?>> futures) {
        RedisFutures.awaitAll(futures, redis.settings().commandTimeout());
    }

    @Override
    public void close() {
        redis.close();
    }
}
