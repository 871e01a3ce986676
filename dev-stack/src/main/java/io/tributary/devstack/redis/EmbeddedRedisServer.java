package io.tributary.devstack.redis;

import io.tributary.devstack.net.Ports;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;

/**
 * A real Redis server (a Redis 7 redis-server of the machine, else the one bundled in codemonstur embedded-redis;
 * see {@link RedisBinary}) bound to loopback, with its
 * data directory given and the append-only file on, so what it holds survives a restart.
 */
public final class EmbeddedRedisServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRedisServer.class);
    private static final Logger REDIS_OUTPUT = LoggerFactory.getLogger("redis-server");

    private final RedisServer server;
    private final int port;
    private final Path dataDir;

    private EmbeddedRedisServer(RedisServer server, int port, Path dataDir) {
        this.server = server;
        this.port = port;
        this.dataDir = dataDir;
    }

    /** Starts on a free port. */
    public static EmbeddedRedisServer start(Path dataDir) {
        return start(dataDir, 0);
    }

    /** Starts on the given port (0 = a free port) and returns once Redis accepts connections. */
    public static EmbeddedRedisServer start(Path dataDir, int port) {
        if (port != 0) {
            Ports.requireFree(port, "Redis", "REDIS_PORT");
        }
        int chosenPort = port == 0 ? Ports.freePort() : port;
        Path dir = dataDir.toAbsolutePath();
        try {
            Files.createDirectories(dir);
            RedisServer server = RedisServer.newRedisServer()
                    .executableProvider(RedisBinary.choose())
                    .port(chosenPort)
                    .bind("127.0.0.1")
                    .setting("dir " + quote(dir.toString()))
                    .setting("appendonly yes")
                    .setting("appendfsync everysec")
                    .setting("daemonize no")
                    // Output is read continuously: a full, unread pipe would block redis-server.
                    .soutListener(REDIS_OUTPUT::info)
                    .serrListener(REDIS_OUTPUT::warn)
                    .build();
            server.start();
            LOG.info("Redis ready on 127.0.0.1:{} (data in {})", chosenPort, dir);
            return new EmbeddedRedisServer(server, chosenPort, dir);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start Redis on port " + chosenPort + " in " + dir, e);
        }
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    /**
     * A clean shutdown: the SHUTDOWN command makes Redis write and fsync its append-only file before it exits (the
     * library's own stop may kill the process outright, losing up to a second of writes). Then the library reaps it.
     */
    public void stop() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("*1\r\n$8\r\nSHUTDOWN\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            // Redis closes the connection once it has saved and is exiting; an error reply is read as well.
            while (socket.getInputStream().read() >= 0) {
                // drain
            }
        } catch (IOException e) {
            LOG.debug("SHUTDOWN of Redis on port {} not acknowledged: {}", port, e.toString());
        }
        try {
            server.stop();
        } catch (IOException e) {
            throw new IllegalStateException("cannot stop Redis on port " + port, e);
        }
    }

    @Override
    public void close() {
        stop();
    }

    private static String quote(String value) {
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
