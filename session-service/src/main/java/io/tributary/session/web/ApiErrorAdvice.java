package io.tributary.session.web;

import io.tributary.session.kafka.KafkaUnavailableException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.TransactionException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/** Maps failures of the endpoints Spring MVC serves to JSON answers {@code {"error": "..."}} ({@link ApiErrors}). */
@RestControllerAdvice
public class ApiErrorAdvice {

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ApiError> api(ApiException e) {
        return answer(ApiErrors.of(e));
    }

    @ExceptionHandler(KafkaUnavailableException.class)
    ResponseEntity<ApiError> kafka(KafkaUnavailableException e) {
        return answer(ApiErrors.of(e));
    }

    @ExceptionHandler({
        TransactionException.class,
        DataAccessResourceFailureException.class,
        TransientDataAccessException.class,
        RecoverableDataAccessException.class
    })
    ResponseEntity<ApiError> database(Exception e) {
        return answer(ApiErrors.databaseUnavailable(e));
    }

    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<ApiError> dataAccess(DataAccessException e) {
        return answer(ApiErrors.of(e));
    }

    @ExceptionHandler({
        HttpMessageNotReadableException.class,
        MethodArgumentTypeMismatchException.class,
        MissingServletRequestParameterException.class
    })
    ResponseEntity<ApiError> unreadable(Exception e) {
        return answer(ApiErrors.malformed(e));
    }

    private static ResponseEntity<ApiError> answer(ApiErrors.Answer answer) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(answer.status());
        answer.headers().forEach(response::header);
        return response.body(answer.body());
    }
}
