package io.tributary.transport.sessionclient;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import io.tributary.common.session.SessionApi;
import tools.jackson.databind.json.JsonMapper;

/**
 * Asynchronous client of session-service's internal API. Futures complete on the HTTP client's executor, never
 * on an event loop; callers continue on their channel's event loop.
 */
public final class SessionServiceClient {

    /** session-service answered 409: the caller's epoch is stale, its connection was taken over. */
    public static final class StaleEpochException extends RuntimeException {
        public StaleEpochException(String message) {
            super(message);
        }
    }

    /** session-service refused a CONNECT: bad credentials or not authorized. */
    public static final class ConnectRefusedException extends RuntimeException {
        private final SessionApi.ConnectRefusal refusal;

        public ConnectRefusedException(SessionApi.ConnectRefusal refusal) {
            super(refusal.message());
            this.refusal = refusal;
        }

        public SessionApi.ConnectRefusal refusal() {
            return refusal;
        }
    }

    /** session-service could not be reached or answered with an error. */
    public static final class UnavailableException extends RuntimeException {
        public UnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final HttpClient http;
    private final URI base;
    private final Duration timeout;
    private final JsonMapper json;

    public SessionServiceClient(URI base, Duration timeout, Executor executor, JsonMapper json) {
        this.base = base;
        this.timeout = timeout;
        this.json = json;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).executor(executor)
                .version(HttpClient.Version.HTTP_1_1).build();
    }

    public CompletableFuture<SessionApi.ConnectResponse> connect(SessionApi.ConnectRequest request) {
        return post(SessionApi.CONNECT, request, SessionApi.ConnectResponse.class);
    }

    public CompletableFuture<SessionApi.SubscribeResponse> subscribe(SessionApi.SubscribeRequest request) {
        return post(SessionApi.SUBSCRIBE, request, SessionApi.SubscribeResponse.class);
    }

    public CompletableFuture<SessionApi.UnsubscribeResponse> unsubscribe(SessionApi.UnsubscribeRequest request) {
        return post(SessionApi.UNSUBSCRIBE, request, SessionApi.UnsubscribeResponse.class);
    }

    public CompletableFuture<Void> disconnect(SessionApi.DisconnectRequest request) {
        return post(SessionApi.DISCONNECT, request, null).thenApply(ignored -> null);
    }

    public CompletableFuture<SessionApi.HeartbeatResponse> heartbeat(SessionApi.HeartbeatRequest request) {
        return post(SessionApi.HEARTBEAT, request, SessionApi.HeartbeatResponse.class);
    }

    /** The IP entries of the block list; {@code ranges} is null when they are still at {@code knownVersion}. */
    public CompletableFuture<SessionApi.BlockedIps> blockedIps(String knownVersion) {
        String query = knownVersion == null ? ""
                : "?version=" + java.net.URLEncoder.encode(knownVersion, java.nio.charset.StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(base.resolve(SessionApi.BLOCKED_IPS + query)).timeout(timeout)
                .header("Accept", "application/json").GET().build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).thenApply(response -> {
            if (response.statusCode() != 200) {
                throw new UnavailableException("session-service answered " + response.statusCode() + " to "
                        + SessionApi.BLOCKED_IPS, null);
            }
            return json.readValue(response.body(), SessionApi.BlockedIps.class);
        });
    }

    private <T> CompletableFuture<T> post(String path, Object body, Class<T> responseType) {
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(body);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                .exceptionally(e -> {
                    throw new UnavailableException("session-service unreachable at " + base + ": " + e.getMessage(),
                            e);
                })
                .thenApply(response -> {
                    int status = response.statusCode();
                    if (status == 409) {
                        throw new StaleEpochException(new String(response.body(),
                                java.nio.charset.StandardCharsets.UTF_8));
                    }
                    if (status == SessionApi.CONNECT_REFUSED_STATUS && path.equals(SessionApi.CONNECT)) {
                        throw new ConnectRefusedException(json.readValue(response.body(),
                                SessionApi.ConnectRefusal.class));
                    }
                    if (status < 200 || status >= 300) {
                        throw new UnavailableException("session-service answered " + status + " to " + path + ": "
                                + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8), null);
                    }
                    if (responseType == null || response.body().length == 0) {
                        return null;
                    }
                    return json.readValue(response.body(), responseType);
                });
    }
}
