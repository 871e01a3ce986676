package io.tributary.devstack.redis;

import io.tributary.devstack.process.ChildMain;
import java.nio.file.Path;
import java.util.Map;

/**
 * Runs {@link EmbeddedRedisServer} under its own JVM until SIGTERM.
 *
 * <p>Options (environment fallback): {@code --data-dir} ({@code REDIS_DATA_DIR}, required), {@code --port}
 * ({@code REDIS_PORT}, default a free port). Once ready it prints {@code TRIBUTARY-DEVSTACK-READY <redis address>},
 * {@code redis://127.0.0.1:<port>} without the credentials: the line goes to the log file as well. The launcher
 * takes them from the data directory ({@link RedisCredentials#ofDataDir}).
 */
public final class RedisServerMain {

    private RedisServerMain() {}

    public static void main(String[] args) {
        Map<String, String> options = ChildMain.options(args);
        Path dataDir = ChildMain.requiredPath(options, "data-dir", "REDIS_DATA_DIR");
        int port = ChildMain.port(options, "port", "REDIS_PORT");
        ChildMain.serve("redis", () -> EmbeddedRedisServer.start(dataDir, port), EmbeddedRedisServer::address);
    }
}
