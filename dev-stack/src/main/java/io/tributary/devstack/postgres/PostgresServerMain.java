package io.tributary.devstack.postgres;

import io.tributary.devstack.process.ChildMain;
import java.nio.file.Path;
import java.util.Map;

/**
 * Runs {@link EmbeddedPostgresServer} under its own JVM until SIGTERM.
 *
 * <p>Options (environment fallback): {@code --data-dir} ({@code POSTGRES_DATA_DIR}, required), {@code --port}
 * ({@code POSTGRES_PORT}, default a free port). Once ready it prints {@code TRIBUTARY-DEVSTACK-READY <jdbc url>}.
 */
public final class PostgresServerMain {

    private PostgresServerMain() {
    }

    public static void main(String[] args) {
        Map<String, String> options = ChildMain.options(args);
        Path dataDir = Path.of(ChildMain.option(options, "data-dir", "POSTGRES_DATA_DIR")
                .orElseThrow(() -> new IllegalArgumentException("--data-dir or POSTGRES_DATA_DIR is required")));
        int port = Integer.parseInt(ChildMain.option(options, "port", "POSTGRES_PORT").orElse("0"));
        EmbeddedPostgresServer postgres;
        try {
            postgres = EmbeddedPostgresServer.start(dataDir, port);
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
            return;
        }
        ChildMain.runUntilTerminated("postgres", postgres, postgres.jdbcUrl());
    }
}
