package io.tributary.devstack.redis;

import io.tributary.devstack.process.ChildMain;
import java.nio.file.Path;
import java.util.Map;

/**
 * Runs {@link EmbeddedRedisServer} under its own JVM until SIGTERM.
 *
 * <p>Options (environment fallback): {@code --data-dir} ({@code REDIS_DATA_DIR}, required), {@code --port}
 * ({@code REDIS_PORT}, default a free port). Once ready it prints {@code TRIBUTARY-DEVSTACK-READY <redis url>}.
 */
public final class RedisServerMain {

    private RedisServerMain() {
    }

    public static void main(String[] args) {
        Map<String, String> options = ChildMain.options(args);
        Path dataDir = Path.of(ChildMain.option(options, "data-dir", "REDIS_DATA_DIR")
                .orElseThrow(() -> new IllegalArgumentException("--data-dir or REDIS_DATA_DIR is required")));
        int port = Integer.parseInt(ChildMain.option(options, "port", "REDIS_PORT").orElse("0"));
        EmbeddedRedisServer redis;
        try {
            redis = EmbeddedRedisServer.start(dataDir, port);
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
            return;
        }
        ChildMain.runUntilTerminated("redis", redis, redis.url());
    }
}
