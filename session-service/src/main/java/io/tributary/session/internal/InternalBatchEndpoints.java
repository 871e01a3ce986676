package io.tributary.session.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.session.internalauth.InternalCallerGate;
import io.tributary.session.internalauth.InternalRole;
import io.tributary.session.web.ApiErrors;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The calls a transport node makes for batches of its clients' packets: CONNECTs, SUBSCRIBEs, UNSUBSCRIBEs and ended
 * connections, the internal hop of every CONNACK and SUBACK. They are served straight from the internal connector
 * ({@link InternalBatchValve}), not through Spring MVC, because a CONNECT storm's profile (docs/benchmarks-history.md,
 * eleventh round) found 71 % of such a call's samples in the per-call framework (servlet filters, the dispatcher,
 * argument and return-value handling) and most of the JIT's work of the storms after a start in compiling that
 * code, called once per batch. What a call goes through is the same as before: the caller's role from its token
 * (401), POST only (405), the transport nodes' role (403), a JSON body (415, 400), the batch's own checks and
 * transaction, and the same error answers ({@link ApiErrors}); each call is timed in {@code
 * tributary.session.internal.calls} by call and status.
 */
@Component
public class InternalBatchEndpoints {

    private static final Logger log = LoggerFactory.getLogger(InternalBatchEndpoints.class);
    private static final List<InternalRole> CALLERS = List.of(InternalRole.TRANSPORT);

    /** One endpoint: its path, the name its calls are timed under, the body it reads and what it answers. */
    record Endpoint<Q>(String path, String call, Class<Q> requestType, Function<Q, ?> handler) {}

    private final Map<String, Endpoint<?>> byPath = new LinkedHashMap<>();
    private final InternalCallerGate gate;
    private final JsonMapper json;
    private final MeterRegistry meters;

    public InternalBatchEndpoints(
            ConnectBatches connects,
            SubscribeBatches subscribes,
            UnsubscribeBatches unsubscribes,
            DisconnectBatches disconnects,
            InternalCallerGate gate,
            JsonMapper json,
            MeterRegistry meters) {
        this.gate = gate;
        this.json = json;
        this.meters = meters;
        add(SessionApi.CONNECT_BATCH, ConnectApi.ConnectBatch.class, connects::connect);
        add(SessionApi.SUBSCRIBE_BATCH, SubscribeApi.SubscribeBatch.class, subscribes::subscribe);
        add(SessionApi.UNSUBSCRIBE_BATCH, SubscribeApi.UnsubscribeBatch.class, unsubscribes::unsubscribe);
        add(SessionApi.DISCONNECT_BATCH, DisconnectApi.DisconnectBatch.class, batch -> {
            disconnects.disconnect(batch);
            return null;
        });
    }

    private <Q> void add(String path, Class<Q> requestType, Function<Q, ?> handler) {
        byPath.put(path, new Endpoint<>(path, path.substring(path.lastIndexOf('/') + 1), requestType, handler));
    }

    /** The endpoint of a decoded, normalized path; null for any other path. */
    Endpoint<?> find(String path) {
        return path == null ? null : byPath.get(path);
    }

    /** Every endpoint ({@code "POST <path>"}) with the roles that may call it. */
    public Map<String, List<InternalRole>> callers() {
        Map<String, List<InternalRole>> callers = new LinkedHashMap<>();
        byPath.keySet().forEach(path -> callers.put("POST " + path, CALLERS));
        return callers;
    }

    void serve(Endpoint<?> endpoint, HttpServletRequest request, HttpServletResponse response) throws IOException {
        long start = System.nanoTime();
        int status = handle(endpoint, request, response);
        Timer.builder("tributary.session.internal.calls")
                .description("Internal batch calls of the transport nodes, served without Spring MVC")
                .tag("call", endpoint.call())
                .tag("status", Integer.toString(status))
                .publishPercentileHistogram()
                .register(meters)
                .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }

    /** @return the status answered */
    private <Q> int handle(Endpoint<Q> endpoint, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Optional<InternalRole> role = gate.authenticate(request, response);
        if (role.isEmpty()) {
            return HttpServletResponse.SC_UNAUTHORIZED;
        }
        if (!"POST".equals(request.getMethod())) {
            response.setHeader("Allow", "POST");
            return answer(
                    response,
                    new ApiErrors.Answer(
                            HttpStatus.METHOD_NOT_ALLOWED, request.getMethod() + " is not supported: POST only"));
        }
        if (!InternalCallerGate.permits(request, response, role.get(), CALLERS)) {
            return HttpServletResponse.SC_FORBIDDEN;
        }
        if (!isJson(request.getContentType())) {
            return answer(
                    response,
                    new ApiErrors.Answer(
                            HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                            "Content-Type must be application/json: " + request.getContentType()));
        }
        Q body;
        try {
            body = json.readValue(request.getInputStream(), endpoint.requestType());
        } catch (JacksonException e) {
            return answer(response, ApiErrors.malformed(e));
        }
        Object result;
        try {
            result = endpoint.handler().apply(body);
        } catch (RuntimeException e) {
            ApiErrors.Answer answer = ApiErrors.of(e);
            if (answer == null) {
                log.error("Internal call {} failed", endpoint.path(), e);
                answer = new ApiErrors.Answer(
                        HttpStatus.INTERNAL_SERVER_ERROR, "internal error (the session-service log has the details)");
            }
            return answer(response, answer);
        }
        response.setStatus(HttpServletResponse.SC_OK);
        if (result != null) {
            response.setContentType("application/json");
            json.writeValue(response.getOutputStream(), result);
        }
        return HttpServletResponse.SC_OK;
    }

    private int answer(HttpServletResponse response, ApiErrors.Answer answer) throws IOException {
        answer.headers().forEach(response::setHeader);
        response.setStatus(answer.status().value());
        response.setContentType("application/json");
        json.writeValue(response.getOutputStream(), answer.body());
        return answer.status().value();
    }

    /** {@code application/json}, with parameters or not (Spring's {@code consumes} matched the same). */
    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
        return type.toLowerCase(Locale.ROOT).equals("application/json");
    }
}
