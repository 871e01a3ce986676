package io.tributary.session.config;

import java.sql.SQLException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.env.Environment;

/**
 * Turns "the configured PostgreSQL database does not exist" (SQLSTATE 3D000, raised deep inside the connection
 * pool while Flyway starts) into a startup failure that says what is wrong and how to fix it. The service does not
 * create the database itself: it may not have the rights, and a typo in the URL should not silently create one.
 */
public class MissingDatabaseFailureAnalyzer implements FailureAnalyzer {

    static final String INVALID_CATALOG_NAME = "3D000";

    private final Environment environment;

    public MissingDatabaseFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && INVALID_CATALOG_NAME.equals(sql.getSQLState())) {
                String url = environment.getProperty("spring.datasource.url", "(spring.datasource.url not set)");
                return new FailureAnalysis(
                        "The PostgreSQL database configured for session-service does not exist: " + url + " ("
                                + sql.getMessage() + ")",
                        "Create the database before starting session-service (the dev-stack does this; by hand: "
                                + "createdb -h <host> -U <user> <database>), or set POSTGRES_URL to an existing "
                                + "database.",
                        sql);
            }
        }
        return null;
    }
}
