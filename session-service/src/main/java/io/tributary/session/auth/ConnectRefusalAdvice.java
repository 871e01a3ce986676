package io.tributary.session.auth;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.SessionApi;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** A refused CONNECT is an answer, not an error of the service: 403 with the reason the node turns into CONNACK. */
@RestControllerAdvice
public class ConnectRefusalAdvice {

    @ExceptionHandler(ConnectRefusedException.class)
    ResponseEntity<ConnectApi.ConnectRefusal> refused(ConnectRefusedException e) {
        return ResponseEntity.status(SessionApi.CONNECT_REFUSED_STATUS).body(e.refusal());
    }
}
