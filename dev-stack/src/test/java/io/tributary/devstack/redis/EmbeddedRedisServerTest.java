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
        assertThat(dataDir).isDirectoryContaining(path -> path.getFileName().toString().startsWith("appendonly"));

        try (EmbeddedRedisServer redis = EmbeddedRedisServer.start(dataDir, port);
             Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
            assertThat(jedis.get("presence:client-1")).isEqualTo("node-1:7");
        }
    }
}
