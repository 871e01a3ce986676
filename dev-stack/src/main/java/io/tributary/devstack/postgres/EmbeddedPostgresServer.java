package io.tributary.devstack.postgres;

import io.tributary.devstack.net.Ports;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server (zonky embedded binaries) on a persistent data directory: initialised on first start,
 * reused afterwards. The database {@value #DATABASE} is created if missing. Authentication is trust on loopback:
 * user {@value #USER}, empty password.
 *
 * <p>PostgreSQL refuses to run as root. zonky 2.1 copes by running initdb and pg_ctl under {@code unshare -U}
 * when the JVM is root and user namespaces work; where they do not, {@link UnprivilegedPostgresBinaries} runs them
 * as {@code nobody} instead.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    public static final String DATABASE = "tributary";
    public static final String USER = "postgres";
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresServer.class);
    /** The file zonky locks in the data directory while its server runs. */
    private static final String ZONKY_LOCK_FILE = "epg-lock";

    private final Path dataDir;
    private final EmbeddedPostgres postgres;

    private EmbeddedPostgresServer(Path dataDir, EmbeddedPostgres postgres) {
        this.dataDir = dataDir;
        this.postgres = postgres;
    }

    /**
     * What a commit promises. zonky's defaults (fsync off, synchronous_commit off) suit throwaway test databases;
     * data that "survives restarts" needs both on: without fsync a power loss or kernel crash can leave the data
     * directory corrupt, without synchronous commit the last ~0.6 s of acknowledged commits are lost.
     */
    public enum Durability {
        /** fsync and synchronous_commit on: a commit is on disk before it is acknowledged (PostgreSQL's default). */
        CRASH_SAFE,
        /** fsync and synchronous_commit off: for tests whose data is thrown away. */
        THROWAWAY
    }

    /** Starts on a free port, with {@link Durability#THROWAWAY throwaway} durability (tests). */
    public static EmbeddedPostgresServer start(Path dataDir) {
        return start(dataDir, 0);
    }

    /** Starts a {@link Durability#THROWAWAY throwaway} server on the given port (0 = a free port); for tests. */
    public static EmbeddedPostgresServer start(Path dataDir, int port) {
        return start(dataDir, port, Durability.THROWAWAY);
    }

    /** Starts on the given port (0 = a free port) and returns once the database {@value #DATABASE} exists. */
    public static EmbeddedPostgresServer start(Path dataDir, int port, Durability durability) {
        Path dir = dataDir.toAbsolutePath();
        try {
            Files.createDirectories(dir);
            stopLeftoverPostmaster(dir);
            if (port != 0) {
                Ports.requireFree(port, "PostgreSQL", "POSTGRES_PORT");
            }
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dir.toFile())
                    .setCleanDataDirectory(false)
                    .setPort(port == 0 ? Ports.freePort() : port)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    // The C locale exists everywhere; a LANG naming a locale the machine lacks would fail initdb.
                    .setLocaleConfig("locale", "C");
            if (durability == Durability.CRASH_SAFE) {
                // zonky always passes -F (fsync off) to the postmaster; a later -c fsync=on overrides it.
                builder.setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on");
            }
            if (UnprivilegedPostgresBinaries.needed()) {
                UnprivilegedPostgresBinaries binaries = UnprivilegedPostgresBinaries.instance();
                binaries.prepareDataDirectory(dir);
                builder.setPgBinaryResolver(binaries);
            }
            EmbeddedPostgresServer server = new EmbeddedPostgresServer(dir, builder.start());
            server.createDatabaseIfMissing();
            LOG.info("PostgreSQL ready at {} (data in {}, {})", server.jdbcUrl(), dir, durability);
            return server;
        } catch (IOException | SQLException e) {
            throw new IllegalStateException("cannot start PostgreSQL in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** {@code jdbc:postgresql://127.0.0.1:<port>/tributary}. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + DATABASE;
    }

    public String user() {
        return USER;
    }

    /** Empty: the server trusts loopback connections. */
    public String password() {
        return "";
    }

    public int port() {
        return postgres.getPort();
    }

    public Path dataDir() {
        return dataDir;
    }

    /** A connection to the {@value #DATABASE} database. */
    public Connection connect() throws SQLException {
        return postgres.getDatabase(USER, DATABASE).getConnection();
    }

    /** Fast shutdown (pg_ctl stop -m fast); the data stays. */
    public void stop() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new IllegalStateException("cannot stop PostgreSQL in " + dataDir, e);
        }
    }

    @Override
    public void close() {
        stop();
    }

    private void createDatabaseIfMissing() throws SQLException {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                PreparedStatement exists = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            exists.setString(1, DATABASE);
            try (ResultSet rows = exists.executeQuery()) {
                if (rows.next()) {
                    return;
                }
            }
            try (Statement create = connection.createStatement()) {
                create.execute("CREATE DATABASE " + DATABASE);
                LOG.info("Created database {}", DATABASE);
            }
        }
    }

    /**
     * A postmaster left running on this data directory after its launcher was killed would make pg_ctl start fail:
     * stop it first. A live launcher holds zonky's lock file in the data directory; then the directory is in use.
     */
    private static void stopLeftoverPostmaster(Path dataDir) throws IOException {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.isRegularFile(pidFile)) {
            return;
        }
        try (FileChannel lockFile = FileChannel.open(
                        dataDir.resolve(ZONKY_LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = lockFile.tryLock()) {
            if (lock == null) {
                throw new IllegalStateException(
                        "the PostgreSQL data directory " + dataDir + " is in use by another running dev stack");
            }
            stopPostmaster(dataDir, pidFile);
        } catch (OverlappingFileLockException e) {
            throw new IllegalStateException("the PostgreSQL data directory " + dataDir + " is in use in this JVM", e);
        }
    }

    private static void stopPostmaster(Path dataDir, Path pidFile) throws IOException {
        String firstLine = Files.readAllLines(pidFile, StandardCharsets.UTF_8).stream()
                .findFirst()
                .orElse("");
        Optional<ProcessHandle> postmaster;
        try {
            postmaster = ProcessHandle.of(Long.parseLong(firstLine.trim()));
        } catch (NumberFormatException e) {
            return;
        }
        boolean isPostgres = postmaster
                .filter(ProcessHandle::isAlive)
                .flatMap(handle -> handle.info().command())
                .map(command -> command.endsWith("/postgres"))
                .orElse(false);
        if (!isPostgres) {
            return;
        }
        LOG.warn(
                "Stopping a PostgreSQL left running on {} (pid {})",
                dataDir,
                postmaster.get().pid());
        postmaster.get().destroy();
        try {
            postmaster.get().onExit().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "a PostgreSQL (pid " + postmaster.get().pid() + ") still runs on " + dataDir + "; stop it first",
                    e);
        }
    }
}
