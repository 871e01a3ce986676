package io.tributary.session.web;

import java.util.Map;
import org.springframework.http.HttpStatus;

/** A request that cannot be served as asked; answered as {@code {"error": message}} with {@link #status()}. */
public class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final Map<String, String> headers;

    public ApiException(HttpStatus status, String message) {
        this(status, message, Map.of());
    }

    /** @param headers response headers that go with the answer (e.g. {@code Retry-After}) */
    public ApiException(HttpStatus status, String message, Map<String, String> headers) {
        super(message);
        this.status = status;
        this.headers = Map.copyOf(headers);
    }

    public static ApiException badRequest(String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, message);
    }

    public static ApiException notFound(String message) {
        return new ApiException(HttpStatus.NOT_FOUND, message);
    }

    public static ApiException conflict(String message) {
        return new ApiException(HttpStatus.CONFLICT, message);
    }

    public HttpStatus status() {
        return status;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
