package io.tributary.session.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.session.SessionServiceApplication;
import io.tributary.session.support.TestEngines;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.env.MockEnvironment;

/** Starting against a PostgreSQL server that lacks the configured database fails with a message that says so. */
@ExtendWith(OutputCaptureExtension.class)
@Order(1)
class MissingDatabaseStartupTest {

    @Test
    void startupFailsWithAClearMessage(CapturedOutput output) {
        String url = TestEngines.missingDatabaseUrl();
        SpringApplication app = new SpringApplication(SessionServiceApplication.class);
        assertThatThrownBy(() -> app.run(
                        "--server.port=0",
                        // free ports for the internal API and the actuator too; tokens, as every deployment has
                        "--tributary.internal.port=0",
                        "--management.server.port=0",
                        "--tributary.internal.transport-token=test-internal-token-0123456789",
                        "--tributary.internal.routing-token=test-routing-token-9876543210",
                        "--spring.datasource.url=" + url,
                        "--spring.datasource.username=postgres",
                        "--tributary.session.kafka.bootstrap-servers=" + TestEngines.kafkaBootstrap(),
                        "--tributary.session.redis.url=" + TestEngines.redisUrl()))
                .isNotNull();
        assertThat(output.getAll())
                .contains("The PostgreSQL database configured for session-service does not exist: " + url)
                .contains("Create the database before starting session-service");
    }

    @Test
    void onlyTheMissingDatabaseStateIsExplained() {
        MockEnvironment environment = new MockEnvironment().withProperty("spring.datasource.url", "jdbc:x");
        MissingDatabaseFailureAnalyzer analyzer = new MissingDatabaseFailureAnalyzer(environment);

        SQLException missing = connectionFailure(TestEngines.missingDatabaseUrl());
        FailureAnalysis analysis = analyzer.analyze(new IllegalStateException("wrapped", missing));
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("jdbc:x").contains("does not exist");

        assertThat(analyzer.analyze(new IllegalStateException(
                        "wrapped", new SQLException("password authentication failed", "28P01"))))
                .isNull();
    }

    private static SQLException connectionFailure(String url) {
        try {
            DriverManager.getConnection(url, "postgres", "").close();
        } catch (SQLException e) {
            return e;
        }
        throw new AssertionError("connected to " + url);
    }
}
