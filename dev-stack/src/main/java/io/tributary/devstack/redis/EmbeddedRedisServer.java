package io.tributary.devstack.redis;

import io.tributary.devstack.net.Ports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;

/**
 * A real Redis server (a Redis 7 redis-server of the machine, else the one bundled in codemonstur embedded-redis;
 * see {@link RedisBinary}) bound to loopback, with its
 * data directory given and the append-only file on, so what it holds survives a restart.
 *
 * <p>Like the shipped deployments' Redis it answers only authenticated clients: its {@code default} user is off and
 * the one user, {@link RedisCredentials#USER}, has a password generated for the data directory and kept in it
 * ({@link RedisCredentials}). {@link #url()} carries both, so every client given it authenticates; one without them
 * is answered {@code -NOAUTH}. Redis reads them from an ACL file in the data directory that holds only the
 * password's hash, so neither the command line nor a temporary file holds the password.
 */
public final class EmbeddedRedisServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRedisServer.class);
    private static final Logger REDIS_OUTPUT = LoggerFactory.getLogger("redis-server");

    /** The ACL file Redis loads at start-up, rewritten from the password file every time. */
    static final String ACL_FILE = "users.acl";

    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);

    private final RedisServer server;
    private final int port;
    private final Path dataDir;
    private final RedisCredentials credentials;

    private EmbeddedRedisServer(RedisServer server, int port, Path dataDir, RedisCredentials credentials) {
        this.server = server;
        this.port = port;
        this.dataDir = dataDir;
        this.credentials = credentials;
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
            RedisCredentials credentials = RedisCredentials.ofDataDir(dir);
            Path aclFile = writeAclFile(dir, credentials);
            RedisServer server = RedisServer.newRedisServer()
                    .executableProvider(RedisBinary.choose())
                    .port(chosenPort)
                    .bind("127.0.0.1")
                    .setting("dir " + quote(dir.toString()))
                    .setting("appendonly yes")
                    .setting("appendfsync everysec")
                    .setting("daemonize no")
                    .setting("aclfile " + quote(aclFile.toString()))
                    // Output is read continuously: a full, unread pipe would block redis-server.
                    .soutListener(REDIS_OUTPUT::info)
                    .serrListener(REDIS_OUTPUT::warn)
                    .build();
            server.start();
            LOG.info(
                    "Redis ready on 127.0.0.1:{} (data in {}; user {}, password in {})",
                    chosenPort,
                    dir,
                    credentials.user(),
                    RedisCredentials.passwordFile(dir));
            return new EmbeddedRedisServer(server, chosenPort, dir, credentials);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start Redis on port " + chosenPort + " in " + dir, e);
        }
    }

    /** {@code redis://tributary:<password>@127.0.0.1:<port>}: what a client needs, secret included. */
    public String url() {
        return credentials.insertInto(address());
    }

    /** {@code redis://127.0.0.1:<port>}, without the credentials: for logs and what an unauthenticated client gets. */
    public String address() {
        return "redis://127.0.0.1:" + port;
    }

    public RedisCredentials credentials() {
        return credentials;
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
        try {
            // Redis closes the connection once it has saved and is exiting; that ends the wait.
            String reply = RedisCommand.firstReplyLine(url(), SHUTDOWN_TIMEOUT, "SHUTDOWN");
            LOG.debug("SHUTDOWN of Redis on port {} answered {}", port, reply);
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

    private static Path writeAclFile(Path dir, RedisCredentials credentials) throws IOException {
        Path file = dir.resolve(ACL_FILE);
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, credentials.aclFile(), StandardCharsets.US_ASCII);
        return file;
    }

    private static String quote(String value) {
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
