package io.tributary.devstack.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EmbeddedPostgresServerTest {

    /**
     * Under target/ rather than a JUnit temp dir: as root without user namespaces PostgreSQL runs as nobody, who
     * cannot enter a 0700 temp dir.
     */
    private final Path dataDir = Path.of("target", "test-data", "postgres-" + UUID.randomUUID());

    @Test
    void servesTheTributaryDatabaseAndKeepsDataAcrossARestart() throws Exception {
        int port;
        try (EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start(dataDir)) {
            port = postgres.port();
            assertThat(postgres.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:" + port + "/tributary");
            try (Connection connection =
                            DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
                    Statement statement = connection.createStatement()) {
                assertThat(single(statement, "SELECT 1")).isEqualTo("1");
                assertThat(single(statement, "SELECT current_database()")).isEqualTo("tributary");
                assertThat(single(statement, "SELECT count(*) FROM pg_database WHERE datname = 'tributary'"))
                        .isEqualTo("1");
                assertThat(single(statement, "SHOW server_version")).startsWith("17.");
                statement.execute("CREATE TABLE survivor (name text)");
                statement.execute("INSERT INTO survivor VALUES ('kept')");
            }
        }

        try (EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start(dataDir, port);
                Connection connection = postgres.connect();
                Statement statement = connection.createStatement()) {
            assertThat(postgres.port()).isEqualTo(port);
            assertThat(single(statement, "SELECT name FROM survivor")).isEqualTo("kept");
        }
    }

    @Test
    void aCrashSafeServerFsyncsAndCommitsSynchronouslyAThrowawayOneDoesNeither() throws Exception {
        try (EmbeddedPostgresServer postgres =
                        EmbeddedPostgresServer.start(dataDir, 0, EmbeddedPostgresServer.Durability.CRASH_SAFE);
                Connection connection = postgres.connect();
                Statement statement = connection.createStatement()) {
            assertThat(single(statement, "SHOW fsync")).isEqualTo("on");
            assertThat(single(statement, "SHOW synchronous_commit")).isEqualTo("on");
            assertThat(single(statement, "SHOW full_page_writes")).isEqualTo("on");
        }
        try (EmbeddedPostgresServer postgres =
                        EmbeddedPostgresServer.start(dataDir, 0, EmbeddedPostgresServer.Durability.THROWAWAY);
                Connection connection = postgres.connect();
                Statement statement = connection.createStatement()) {
            assertThat(single(statement, "SHOW fsync")).isEqualTo("off");
            assertThat(single(statement, "SHOW synchronous_commit")).isEqualTo("off");
        }
    }

    private static String single(Statement statement, String sql) throws Exception {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).as(sql).isTrue();
            return rows.getString(1);
        }
    }
}
