package io.tributary.devstack.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

class EmbeddedRedisServerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    @Test
    void answersPingSetGetAndKeepsKeysAcrossARestart() throws Exception {
        Path dataDir = dir.resolve("redis");
        int port;
        try (EmbeddedRedisServer redis = EmbeddedRedisServer.start(dataDir)) {
            port = redis.port();
            assertThat(redis.address()).isEqualTo("redis://127.0.0.1:" + port);
            try (Jedis jedis = new Jedis(URI.create(redis.url()))) {
                assertThat(jedis.ping()).isEqualTo("PONG");
                assertThat(jedis.set("presence:client-1", "node-1:7")).isEqualTo("OK");
                assertThat(jedis.get("presence:client-1")).isEqualTo("node-1:7");
                assertThat(jedis.configGet("appendonly")).containsEntry("appendonly", "yes");
                // A transaction too: Redis replays it from the append-only file as its default user, which is off.
                redis.clients.jedis.Transaction multi = jedis.multi();
                multi.set("queue:client-1:a", "m1");
                multi.set("queue:client-1:b", "m2");
                multi.exec();
            }
        }
        assertThat(dataDir)
                .isDirectoryContaining(path -> path.getFileName().toString().startsWith("appendonly"));

        try (EmbeddedRedisServer redis = EmbeddedRedisServer.start(dataDir, port);
                Jedis jedis = new Jedis(URI.create(redis.url()))) {
            assertThat(jedis.get("presence:client-1")).isEqualTo("node-1:7");
            assertThat(jedis.mget("queue:client-1:a", "queue:client-1:b")).containsExactly("m1", "m2");
        }
    }

    @Test
    void refusesClientsWithoutThePasswordItKeepsOwnerOnlyInItsDataDirectoryAcrossRestarts() throws Exception {
        Path dataDir = dir.resolve("redis");
        String firstUrl;
        RedisCredentials first;
        try (EmbeddedRedisServer redis = EmbeddedRedisServer.start(dataDir)) {
            first = redis.credentials();
            firstUrl = redis.url();
            assertThat(firstUrl).isEqualTo("redis://tributary:" + first.password() + "@127.0.0.1:" + redis.port());
            assertThat(first.password()).matches("[0-9a-f]{48}");

            // The default user is off: no command without AUTH, and no password opens it.
            assertThat(RedisCommand.firstReplyLine(redis.address(), TIMEOUT, "PING"))
                    .startsWith("-NOAUTH");
            assertThat(RedisCommand.firstReplyLine(redis.address(), TIMEOUT, "AUTH", first.password()))
                    .startsWith("-WRONGPASS");
            assertThat(RedisCommand.firstReplyLine(firstUrl, TIMEOUT, "PING")).isEqualTo("+PONG");
            try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
                assertThatThrownBy(jedis::ping)
                        .isInstanceOf(JedisDataException.class)
                        .hasMessageContaining("NOAUTH");
            }
        }

        Path passwordFile = dataDir.resolve(RedisCredentials.PASSWORD_FILE);
        assertThat(Files.readString(passwordFile).trim()).isEqualTo(first.password());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile)))
                .isEqualTo("rw-------");
        // The ACL file Redis reads holds the password's hash, not the password.
        assertThat(Files.readString(dataDir.resolve(EmbeddedRedisServer.ACL_FILE)))
                .contains("user default off")
                .doesNotContain(first.password());
        assertThat(first.toString()).doesNotContain(first.password());

        // A restart on the same data directory (the quick start's) keeps the password: the same URL works.
        Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-r--r--"));
        try (EmbeddedRedisServer redis = EmbeddedRedisServer.start(dataDir)) {
            assertThat(redis.credentials()).isEqualTo(first);
            assertThat(RedisCommand.firstReplyLine(first.insertInto(redis.address()), TIMEOUT, "PING"))
                    .isEqualTo("+PONG");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile)))
                .isEqualTo("rw-------");

        // Another data directory, another password.
        try (EmbeddedRedisServer other = EmbeddedRedisServer.start(dir.resolve("other"))) {
            assertThat(other.credentials().password()).isNotEqualTo(first.password());
            assertThatThrownBy(() -> RedisCommand.firstReplyLine(first.insertInto(other.address()), TIMEOUT, "PING"))
                    .isInstanceOf(java.io.IOException.class)
                    .hasMessageContaining("WRONGPASS");
            assertThat(RedisCommand.firstReplyLine(other.url(), TIMEOUT, "PING"))
                    .isEqualTo("+PONG");
        }
    }

    @Test
    void runsTheRedisMajorVersionThatComposeAndKubernetesRunWhenTheMachineHasIt() throws Exception {
        Path installed = RedisBinary.onPath("redis-server");
        Assumptions.assumeTrue(
                installed != null
                        && RedisBinary.majorVersion(installed).orElse(0) == RedisBinary.DEPLOYED_MAJOR
                        && System.getenv(RedisBinary.OVERRIDE_VARIABLE) == null,
                "no Redis " + RedisBinary.DEPLOYED_MAJOR + " redis-server on the PATH");
        // The compose file's Redis major version.
        String compose = Files.readString(Path.of("..", ".env"));
        assertThat(compose).contains("REDIS_VERSION=" + RedisBinary.DEPLOYED_MAJOR + ".");
        try (EmbeddedRedisServer redis = EmbeddedRedisServer.start(dir.resolve("redis7"));
                Jedis jedis = new Jedis(URI.create(redis.url()))) {
            assertThat(jedis.info("server")).contains("redis_version:" + RedisBinary.DEPLOYED_MAJOR + ".");
        }
    }
}
