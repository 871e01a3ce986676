package io.tributary.transport.sessionclient;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.tributary.common.session.SessionApi;
import io.tributary.transport.sessionclient.SessionServiceClient.StaleEpochException;
import io.tributary.transport.sessionclient.SessionServiceClient.UnavailableException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP side of {@link SessionServiceClient}: JSON over HTTP/1.1 with the internal API token, to one of several
 * session-service instances, round robin over those not marked down and failing over to the next
 * ({@link InternalHttpClient}). Futures complete on {@code executor}, where the answers are read, never on an event
 * loop.
 */
final class SessionServiceHttp implements AutoCloseable {

    private static final long DOWN_NANOS = Duration.ofSeconds(5).toNanos();

    private final InternalHttpClient http;
    private final Executor executor;
    /** session-service instances; calls go round robin over those not marked down, and fail over to the next. */
    private final List<URI> bases;

    private final long[] downUntilNanos;
    private final AtomicInteger nextBase = new AtomicInteger();
    private final Duration timeout;
    private final JsonMapper json;
    /** Accept and the token, on every call. */
    private final HttpHeaders getHeaders;
    /** Those and Content-Type. */
    private final HttpHeaders postHeaders;

    /** @param token the deployment's internal API secret, sent with every call */
    SessionServiceHttp(List<URI> bases, Duration timeout, Executor executor, JsonMapper json, String token) {
        if (bases.isEmpty()) {
            throw new IllegalArgumentException("no session-service URL");
        }
        this.bases = List.copyOf(bases);
        this.downUntilNanos = new long[bases.size()];
        this.timeout = timeout;
        this.json = json;
        this.executor = executor;
        this.getHeaders = new DefaultHttpHeaders()
                .set(HttpHeaderNames.ACCEPT, "application/json")
                .set(SessionApi.TOKEN_HEADER, token);
        this.postHeaders =
                new DefaultHttpHeaders().add(getHeaders).set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        this.http = new InternalHttpClient(timeout);
    }

    @Override
    public void close() {
        http.close();
    }

    /**
     * GET {@code path + query}; anything but 200 fails with {@link UnavailableException}.
     *
     * @param query empty, or {@code ?...} already encoded
     */
    <T> CompletableFuture<T> get(String path, String query, Class<T> responseType) {
        return send(HttpMethod.GET, path + query, null, getHeaders).thenApply(response -> {
            if (response.status() != 200) {
                throw new UnavailableException("session-service answered " + response.status() + " to " + path, null);
            }
            return json.readValue(response.body(), responseType);
        });
    }

    /**
     * POST {@code body} as JSON; 409 fails with {@link StaleEpochException}, anything else but 2xx with
     * {@link UnavailableException}.
     *
     * @param responseType null when the answer has no body to read
     */
    <T> CompletableFuture<T> post(String path, Object body, Class<T> responseType) {
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(body);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return send(HttpMethod.POST, path, bytes, postHeaders).thenApply(response -> {
            int status = response.status();
            if (status == 409) {
                throw new StaleEpochException(new String(response.body(), StandardCharsets.UTF_8));
            }
            if (status < 200 || status >= 300) {
                throw new UnavailableException(
                        "session-service answered " + status + " to " + path + ": "
                                + new String(response.body(), StandardCharsets.UTF_8),
                        null);
            }
            if (responseType == null || response.body().length == 0) {
                return null;
            }
            return json.readValue(response.body(), responseType);
        });
    }

    /**
     * Sends to the next instance not marked down; one that cannot be reached is marked down and the next is tried,
     * each instance at most once. Every internal call may be repeated: a CONNECT batch that reached an instance which
     * died before answering was rolled back, or committed and is then taken over by its repetition; the others are
     * idempotent per epoch.
     */
    private CompletableFuture<InternalHttpClient.Response> send(
            HttpMethod method, String target, byte[] body, HttpHeaders headers) {
        long now = System.nanoTime();
        int start = Math.floorMod(nextBase.getAndIncrement(), bases.size());
        for (int k = 0; k < bases.size(); k++) {
            int i = (start + k) % bases.size();
            if (downUntilNanos[i] - now <= 0) {
                start = i;
                break;
            }
        }
        // Answers are read on the executor, off the client's event loop.
        return attempt(method, target, body, headers, start, 0).thenApplyAsync(response -> response, executor);
    }

    private CompletableFuture<InternalHttpClient.Response> attempt(
            HttpMethod method, String target, byte[] body, HttpHeaders headers, int start, int tried) {
        int i = (start + tried) % bases.size();
        URI base = bases.get(i);
        URI resolved = base.resolve(target);
        String requestTarget =
                resolved.getRawPath() + (resolved.getRawQuery() == null ? "" : "?" + resolved.getRawQuery());
        return http.send(base, method, requestTarget, body, headers, timeout)
                .handle((response, failure) -> {
                    if (failure == null) {
                        return CompletableFuture.completedFuture(response);
                    }
                    downUntilNanos[i] = System.nanoTime() + DOWN_NANOS;
                    if (tried + 1 < bases.size()) {
                        return attempt(method, target, body, headers, start, tried + 1);
                    }
                    return CompletableFuture.<InternalHttpClient.Response>failedFuture(new UnavailableException(
                            "session-service unreachable at " + base + ": " + failure.getMessage(), failure));
                })
                .thenCompose(f -> f);
    }
}
