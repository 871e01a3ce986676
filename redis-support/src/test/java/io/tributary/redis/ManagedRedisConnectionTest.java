package io.tributary.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.devstack.redis.EmbeddedRedisServer;
import io.tributary.devstack.redis.RedisCredentials;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The factory's connection against a real Redis: named, measured, and the connect strategy every service uses. */
class ManagedRedisConnectionTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    @Test
    void connects_at_once_with_the_client_name_and_records_command_latencies() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (EmbeddedRedisServer redis = EmbeddedRedisServer.start(Files.createTempDirectory("redis-support"));
                ManagedRedisConnection<String, String> redisConnection = RedisClientFactory.open(
                        RedisSettings.of(redis.url(), TIMEOUT, "tributary-test"), StringCodec.UTF8, meters)) {
            assertThat(redisConnection.everConnected())
                    .as("connected on the starting thread")
                    .isTrue();
            assertThat(redisConnection.connection().sync().clientGetname()).isEqualTo("tributary-test");
            redisConnection.connection().sync().set("k", "v");
        }
        assertThat(meters.find("lettuce.command.completion").timers())
                .anySatisfy(t -> assertThat(t.count()).isPositive());
    }

    @Test
    void starts_without_redis_fails_commands_at_once_and_connects_when_redis_comes() throws Exception {
        int port = freePort();
        Path dir = Files.createTempDirectory("redis-support-late");
        // The password the Redis started below will have: the one generated for its data directory.
        String url = RedisCredentials.ofDataDir(dir).insertInto("redis://127.0.0.1:" + port);
        RedisSettings settings = new RedisSettings(url, TIMEOUT, Duration.ofMillis(200), "tributary-late");
        try (ManagedRedisConnection<String, String> redisConnection =
                RedisClientFactory.open(settings, StringCodec.UTF8, new SimpleMeterRegistry())) {
            assertThat(redisConnection.everConnected()).isFalse();
            long start = System.nanoTime();
            assertThatThrownBy(redisConnection::connection).isInstanceOf(RedisConnectionException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("never blocks the caller")
                    .isLessThan(Duration.ofMillis(100));
            try (EmbeddedRedisServer redis = EmbeddedRedisServer.start(dir, port)) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!redisConnection.everConnected() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(redisConnection.connection().sync().ping()).isEqualTo("PONG");
            }
        }
    }

    @Test
    void a_lost_connection_comes_back_by_itself_and_says_so() throws Exception {
        Path dir = Files.createTempDirectory("redis-support-restart");
        EmbeddedRedisServer redis = EmbeddedRedisServer.start(dir);
        int port = redis.port();
        CountDownLatch reconnected = new CountDownLatch(1);
        try (ManagedRedisConnection<String, String> redisConnection = RedisClientFactory.open(
                RedisSettings.of(redis.url(), TIMEOUT, "tributary-restart"),
                StringCodec.UTF8,
                new SimpleMeterRegistry())) {
            redisConnection.onReconnected(reconnected::countDown);
            redisConnection.connection().sync().set("k", "v");
            redis.close();
            redis = EmbeddedRedisServer.start(dir, port);
            assertThat(reconnected.await(30, TimeUnit.SECONDS))
                    .as("Lettuce reconnected")
                    .isTrue();
            assertThat(redisConnection.connection().sync().ping()).isEqualTo("PONG");
        } finally {
            redis.close();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
