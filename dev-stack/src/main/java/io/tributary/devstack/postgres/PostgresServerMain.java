package io.tributary.devstack.postgres;

import io.tributary.devstack.process.ChildMain;
import java.nio.file.Path;
import java.util.Map;

/**
 * Runs {@link EmbeddedPostgresServer} under its own JVM until SIGTERM.
 *
 * <p>Options (environment fallback): {@code --data-dir} ({@code POSTGRES_DATA_DIR}, required), {@code --port}
 * ({@code POSTGRES_PORT}, default a free port), {@code --fsync} ({@code POSTGRES_FSYNC}, default true: crash-safe
 * commits; false turns fsync and synchronous commit off). Once ready it prints {@code TRIBUTARY-DEVSTACK-READY <jdbc url>}.
 */
public final class PostgresServerMain {

    private PostgresServerMain() {}

    public static void main(String[] args) {
        Map<String, String> options = ChildMain.options(args);
        Path dataDir = ChildMain.requiredPath(options, "data-dir", "POSTGRES_DATA_DIR");
        int port = ChildMain.port(options, "port", "POSTGRES_PORT");
        boolean fsync = ChildMain.bool(options, "fsync", "POSTGRES_FSYNC", true);
        EmbeddedPostgresServer.Durability durability =
                fsync ? EmbeddedPostgresServer.Durability.CRASH_SAFE : EmbeddedPostgresServer.Durability.THROWAWAY;
        ChildMain.serve(
                "postgres",
                () -> EmbeddedPostgresServer.start(dataDir, port, durability),
                EmbeddedPostgresServer::jdbcUrl);
    }
}
