package io.tributary.transport.sessionclient;

import io.tributary.common.session.SessionApi;
import io.tributary.transport.sessionclient.SessionServiceClient.StaleEpochException;
import io.tributary.transport.sessionclient.SessionServiceClient.UnavailableException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP side of {@link SessionServiceClient}: JSON over HTTP/1.1 with the internal API token, to one of several
 * session-service instances, round robin over those not marked down and failing over to the next. Futures complete
 * on the HTTP client's executor.
 */
final class SessionServiceHttp {

    private static final long DOWN_NANOS = Duration.ofSeconds(5).toNanos();

    private final HttpClient http;
    /** session-service instances; calls go round robin over those not marked down, and fail over to the next. */
    private final List<URI> bases;

    private final long[] downUntilNanos;
    private final AtomicInteger nextBase = new AtomicInteger();
    private final Duration timeout;
    private final JsonMapper json;
    private final String token;

    /** @param token the deployment's internal API secret, sent with every call */
    SessionServiceHttp(List<URI> bases, Duration timeout, Executor executor, JsonMapper json, String token) {
        if (bases.isEmpty()) {
            throw new IllegalArgumentException("no session-service URL");
        }
        this.bases = List.copyOf(bases);
        this.downUntilNanos = new long[bases.size()];
        this.timeout = timeout;
        this.json = json;
        this.token = token;
        this.http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .executor(executor)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    /**
     * GET {@code path + query}; anything but 200 fails with {@link UnavailableException}.
     *
     * @param query empty, or {@code ?...} already encoded
     */
    <T> CompletableFuture<T> get(String path, String query, Class<T> responseType) {
        return send(base -> HttpRequest.newBuilder(base.resolve(path + query))
                        .timeout(timeout)
                        .header("Accept", "application/json")
                        .header(SessionApi.TOKEN_HEADER, token)
                        .GET()
                        .build())
                .thenApply(response -> {
                    if (response.statusCode() != 200) {
                        throw new UnavailableException(
                                "session-service answered " + response.statusCode() + " to " + path, null);
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
        return send(base -> HttpRequest.newBuilder(base.resolve(path))
                        .timeout(timeout)
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json")
                        .header(SessionApi.TOKEN_HEADER, token)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                        .build())
                .thenApply(response -> {
                    int status = response.statusCode();
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
    private CompletableFuture<HttpResponse<byte[]>> send(Function<URI, HttpRequest> request) {
        long now = System.nanoTime();
        int start = Math.floorMod(nextBase.getAndIncrement(), bases.size());
        for (int k = 0; k < bases.size(); k++) {
            int i = (start + k) % bases.size();
            if (downUntilNanos[i] - now <= 0) {
                start = i;
                break;
            }
        }
        return attempt(request, start, 0);
    }

    private CompletableFuture<HttpResponse<byte[]>> attempt(Function<URI, HttpRequest> request, int start, int tried) {
        int i = (start + tried) % bases.size();
        URI base = bases.get(i);
        return http.sendAsync(request.apply(base), HttpResponse.BodyHandlers.ofByteArray())
                .handle((response, failure) -> {
                    if (failure == null) {
                        return CompletableFuture.completedFuture(response);
                    }
                    downUntilNanos[i] = System.nanoTime() + DOWN_NANOS;
                    if (tried + 1 < bases.size()) {
                        return attempt(request, start, tried + 1);
                    }
                    return CompletableFuture.<HttpResponse<byte[]>>failedFuture(new UnavailableException(
                            "session-service unreachable at " + base + ": " + failure.getMessage(), failure));
                })
                .thenCompose(f -> f);
    }
}
