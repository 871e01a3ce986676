package io.tributary.session.web;

import io.tributary.session.kafka.KafkaUnavailableException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.transaction.TransactionException;

/**
 * What a failure is answered with, {@code {"error": "..."}}: 4xx for what the caller got wrong, 503 when PostgreSQL
 * or Kafka cannot be reached (the caller may retry; nothing was committed), 500 for the rest, each logged as it
 * deserves. One mapping for {@link ApiErrorAdvice} (the endpoints Spring MVC serves) and the internal batch endpoints
 * (served without it).
 */
public final class ApiErrors {

    private static final Logger log = LoggerFactory.getLogger(ApiErrors.class);

    private ApiErrors() {}

    /** An error answer: status, headers that go with it, and the message of its body. */
    public record Answer(HttpStatus status, Map<String, String> headers, String message) {

        public Answer(HttpStatus status, String message) {
            this(status, Map.of(), message);
        }

        public ApiError body() {
            return new ApiError(message);
        }
    }

    public static Answer of(ApiException e) {
        return new Answer(e.status(), e.headers(), e.getMessage());
    }

    public static Answer of(KafkaUnavailableException e) {
        log.warn("Kafka unavailable: {}", e.getMessage());
        return new Answer(HttpStatus.SERVICE_UNAVAILABLE, "Kafka unavailable: " + e.getMessage());
    }

    /**
     * PostgreSQL unreachable: no connection to begin with ({@code CannotCreateTransactionException}), or it died
     * mid-transaction and the rollback or commit failed too ({@code TransactionSystemException}).
     */
    public static Answer databaseUnavailable(Exception e) {
        log.warn("PostgreSQL unavailable: {}", e.toString());
        // The driver's text (host names, SQL, constraint and column names) stays in the log.
        return new Answer(HttpStatus.SERVICE_UNAVAILABLE, "PostgreSQL unavailable: try again later");
    }

    public static Answer of(DataAccessException e) {
        log.error("Database error", e);
        return new Answer(HttpStatus.INTERNAL_SERVER_ERROR, "database error (the session-service log has the details)");
    }

    /** A body or parameter that cannot be read. */
    public static Answer malformed(Throwable e) {
        return new Answer(HttpStatus.BAD_REQUEST, "malformed request: " + rootMessage(e));
    }

    /**
     * Any failure of a call, by the rules above; {@code null} for one none of them covers (the caller answers 500 and
     * logs it).
     */
    public static Answer of(Throwable e) {
        if (e instanceof ApiException api) {
            return of(api);
        }
        if (e instanceof KafkaUnavailableException kafka) {
            return of(kafka);
        }
        if (e instanceof TransactionException
                || e instanceof DataAccessResourceFailureException
                || e instanceof TransientDataAccessException
                || e instanceof RecoverableDataAccessException) {
            return databaseUnavailable((Exception) e);
        }
        if (e instanceof DataAccessException data) {
            return of(data);
        }
        return null;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
