package io.tributary.devstack.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

class EmbeddedRedisServerTest {

    @TempDir
    Path dir;

    @Test
    void answersPingSetGetAndKeepsKeysAcrossARestart() throws Exception {
        Path dataDir = dir.resolve("redis");
        int port;
        try (EmbeddedRedisServer redis = EmbeddedRedisServer.start(dataDir)) {
            port = redis.port();
            assertThat(redis.url()).isEqualTo("redis://127.0.0.1:" + port);
            try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                assertThat(jedis.ping()).isEqualTo("PONG");
                assertThat(jedis.set("presence:client-1", "node-1:7")).isEqualTo("OK");
                assertThat(jedis.get("presence:client-1")).isEqualTo("node-1:7");
                assertThat(jedis.configGet("appendonly")).containsEntry("appendonly", "yes");
            }
        }
        assertThat(dataDir)
                .isDirectoryContaining(path -> path.getFileName().toString().startsWith("appendonly"));

        try (EmbeddedRedisServer redis = EmbeddedRedisServer.start(dataDir, port);
                Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
            assertThat(jedis.get("presence:client-1")).isEqualTo("node-1:7");
        }
    }

    @Test
    void runsTheRedisMajorVersionThatComposeAndKubernetesRunWhenTheMachineHasIt() throws Exception {
        java.nio.file.Path installed = RedisBinary.onPath("redis-server");
        org.junit.jupiter.api.Assumptions.assumeTrue(
                installed != null
                        && RedisBinary.majorVersion(installed).orElse(0) == RedisBinary.DEPLOYED_MAJOR
                        && System.getenv(RedisBinary.OVERRIDE_VARIABLE) == null,
                "no Redis " + RedisBinary.DEPLOYED_MAJOR + " redis-server on the PATH");
        // The compose file's Redis major version.
        String compose = java.nio.file.Files.readString(java.nio.file.Path.of("..", ".env"));
        assertThat(compose).contains("REDIS_VERSION=" + RedisBinary.DEPLOYED_MAJOR + ".");
        try (EmbeddedRedisServer redis = EmbeddedRedisServer.start(dir.resolve("redis7"));
                Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
            assertThat(jedis.info("server")).contains("redis_version:" + RedisBinary.DEPLOYED_MAJOR + ".");
        }
    }
}
