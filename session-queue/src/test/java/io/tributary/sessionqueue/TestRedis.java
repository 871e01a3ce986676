package io.tributary.sessionqueue;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.devstack.redis.EmbeddedRedisServer;
import io.tributary.redis.ManagedRedisConnection;
import io.tributary.redis.RedisClientFactory;
import io.tributary.redis.RedisSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;

/** One real Redis for the module's tests (dev-stack's embedded server), started on first use, stopped at exit. */
final class TestRedis {

    private static EmbeddedRedisServer redis;

    private TestRedis() {}

    static synchronized String url() {
        if (redis == null) {
            try {
                redis = EmbeddedRedisServer.start(Files.createTempDirectory("session-queue-redis"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(redis::close, "test-redis-stop"));
        }
        return redis.url();
    }

    static RedisSettings settings() {
        return RedisSettings.of(url(), Duration.ofSeconds(2), "session-queue-test");
    }

    /** A connection as routing and transport open theirs. */
    static ManagedRedisConnection<byte[], byte[]> binary() {
        return RedisClientFactory.open(settings(), ByteArrayCodec.INSTANCE, new SimpleMeterRegistry());
    }

    /** A connection as session-service opens its own. */
    static ManagedRedisConnection<String, String> text() {
        return RedisClientFactory.open(settings(), StringCodec.UTF8, new SimpleMeterRegistry());
    }
}
