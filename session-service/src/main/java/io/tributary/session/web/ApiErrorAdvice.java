package io.tributary.session.web;

import io.tributary.session.kafka.KafkaUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.TransactionException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * Maps failures to JSON answers {@code {"error": "..."}}: 4xx for what the caller got wrong, 503 when PostgreSQL
 * or Kafka cannot be reached (the caller may retry; nothing was committed), 500 for the rest.
 */
@RestControllerAdvice
public class ApiErrorAdvice {

    private static final Logger log = LoggerFactory.getLogger(ApiErrorAdvice.class);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ApiError> api(ApiException e) {
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(e.status());
        e.headers().forEach(answer::header);
        return answer.body(new ApiError(e.getMessage()));
    }

    @ExceptionHandler(KafkaUnavailableException.class)
    ResponseEntity<ApiError> kafka(KafkaUnavailableException e) {
        log.warn("Kafka unavailable: {}", e.getMessage());
        return answer(HttpStatus.SERVICE_UNAVAILABLE, "Kafka unavailable: " + e.getMessage());
    }

    // TransactionException: no connection to begin with (CannotCreateTransactionException), or the connection died
    // mid-transaction and the rollback or commit failed too (TransactionSystemException).
    @ExceptionHandler({
        TransactionException.class,
        DataAccessResourceFailureException.class,
        TransientDataAccessException.class,
        RecoverableDataAccessException.class
    })
    ResponseEntity<ApiError> database(Exception e) {
        log.warn("PostgreSQL unavailable: {}", e.toString());
        // The driver's text (host names, SQL, constraint and column names) stays in the log.
        return answer(HttpStatus.SERVICE_UNAVAILABLE, "PostgreSQL unavailable: try again later");
    }

    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<ApiError> dataAccess(DataAccessException e) {
        log.error("Database error", e);
        return answer(HttpStatus.INTERNAL_SERVER_ERROR, "database error (the session-service log has the details)");
    }

    @ExceptionHandler({
        HttpMessageNotReadableException.class,
        MethodArgumentTypeMismatchException.class,
        MissingServletRequestParameterException.class
    })
    ResponseEntity<ApiError> unreadable(Exception e) {
        return answer(HttpStatus.BAD_REQUEST, "malformed request: " + rootMessage(e));
    }

    private static ResponseEntity<ApiError> answer(HttpStatus status, String message) {
        return ResponseEntity.status(status).body(new ApiError(message));
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
