package io.tributary.transport.sessionclient;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.LimitsApi;
import io.tributary.common.session.LivenessApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import tools.jackson.databind.json.JsonMapper;

/**
 * Asynchronous client of session-service's internal API. Futures complete on the HTTP client's executor, never
 * on an event loop; callers continue on their channel's event loop. CONNECTs, SUBSCRIBEs, UNSUBSCRIBEs and
 * disconnects are gathered into batch calls ({@link RequestBatcher}); the calls go over
 * {@link SessionServiceHttp}.
 */
public final class SessionServiceClient implements AutoCloseable {

    /** session-service answered 409: the caller's epoch is stale, its connection was taken over. */
    public static final class StaleEpochException extends RuntimeException {
        public StaleEpochException(String message) {
            super(message);
        }
    }

    /** session-service refused a CONNECT: bad credentials or not authorized. */
    public static final class ConnectRefusedException extends RuntimeException {
        private final ConnectApi.ConnectRefusal refusal;

        public ConnectRefusedException(ConnectApi.ConnectRefusal refusal) {
            super(refusal.message());
            this.refusal = refusal;
        }

        public ConnectApi.ConnectRefusal refusal() {
            return refusal;
        }
    }

    /** session-service could not be reached or answered with an error. */
    public static final class UnavailableException extends RuntimeException {
        public UnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * How CONNECTs, SUBSCRIBEs, UNSUBSCRIBEs and disconnects are gathered into batch calls (see
     * {@link RequestBatcher}); {@code maxQueuedConnects} and {@code maxConnectWait} bound CONNECTs only.
     */
    public record Batching(int maxInFlight, int maxBatch, int maxQueuedConnects, Duration maxConnectWait) {
        public static final Batching DEFAULTS = new Batching(4, 500, 10_000, Duration.ofSeconds(5));
    }

    private final SessionServiceHttp http;
    private final RequestBatcher<ConnectApi.ConnectRequest, ConnectApi.ConnectOutcome> connects;
    private final RequestBatcher<DisconnectApi.DisconnectRequest, Void> disconnects;
    private final RequestBatcher<SubscribeApi.SubscribeRequest, SubscribeApi.SubscribeOutcome> subscribes;
    private final RequestBatcher<SubscribeApi.UnsubscribeRequest, SubscribeApi.UnsubscribeOutcome> unsubscribes;

    /**
     * @param token the deployment's internal API secret, sent with every call (session-service refuses calls
     *              without it)
     */
    public SessionServiceClient(
            URI base, Duration timeout, Executor executor, JsonMapper json, String token, Batching batching) {
        this(List.of(base), timeout, executor, json, token, batching);
    }

    /**
     * @param bases session-service instances (several: each call goes to the next one that answers; an instance that
     *              could not be reached is skipped for 5 s)
     */
    public SessionServiceClient(
            List<URI> bases, Duration timeout, Executor executor, JsonMapper json, String token, Batching batching) {
        this.http = new SessionServiceHttp(bases, timeout, executor, json, token);
        this.connects = new RequestBatcher<>(
                "CONNECT",
                this::connectBatch,
                batching.maxInFlight(),
                batching.maxBatch(),
                batching.maxQueuedConnects(),
                batching.maxConnectWait().toNanos(),
                System::nanoTime,
                executor);
        // SUBSCRIBEs and UNSUBSCRIBEs are bounded by the connections (one of either pending per connection: later
        // packets wait behind it), so neither is refused for load.
        this.subscribes = new RequestBatcher<>(
                "SUBSCRIBE",
                this::subscribeBatch,
                batching.maxInFlight(),
                batching.maxBatch(),
                Integer.MAX_VALUE,
                Long.MAX_VALUE,
                System::nanoTime,
                executor);
        this.unsubscribes = new RequestBatcher<>(
                "UNSUBSCRIBE",
                this::unsubscribeBatch,
                batching.maxInFlight(),
                batching.maxBatch(),
                Integer.MAX_VALUE,
                Long.MAX_VALUE,
                System::nanoTime,
                executor);
        // Disconnects are never refused for load: a session must not stay marked connected.
        this.disconnects = new RequestBatcher<>(
                "disconnect",
                this::disconnectBatch,
                batching.maxInFlight(),
                batching.maxBatch(),
                Integer.MAX_VALUE,
                Long.MAX_VALUE,
                System::nanoTime,
                executor);
    }

    /** Closes the connections to session-service; calls still under way fail. */
    @Override
    public void close() {
        http.close();
    }

    /**
     * Gathered with the other CONNECTs of this node into batch calls.
     *
     * @return fails with {@link ConnectRefusedException} (refused by authentication, authorization or the block
     *         list), {@link RequestBatcher.OverloadedException} (too many CONNECTs waiting: the node is overloaded) or
     *         {@link UnavailableException}
     */
    public CompletableFuture<ConnectApi.ConnectResponse> connect(ConnectApi.ConnectRequest request) {
        return connects.submit(request).thenApply(outcome -> {
            if (outcome.refused() != null) {
                throw new ConnectRefusedException(outcome.refused());
            }
            if (outcome.accepted() == null) {
                throw new UnavailableException("session-service: " + outcome.unavailable(), null);
            }
            return outcome.accepted();
        });
    }

    /**
     * Reports the batch calls: {@code tributary.session.calls} (timer, tags {@code call} = connect / subscribe /
     * unsubscribe / disconnect and {@code outcome}), {@code tributary.session.call.requests} (requests per call) and
     * {@code tributary.session.connects.waiting} (CONNECTs waiting for a call).
     */
    public void bindMetrics(io.micrometer.core.instrument.MeterRegistry registry) {
        connects.listener(SessionCallMetrics.of(registry, "connect"));
        disconnects.listener(SessionCallMetrics.of(registry, "disconnect"));
        subscribes.listener(SessionCallMetrics.of(registry, "subscribe"));
        unsubscribes.listener(SessionCallMetrics.of(registry, "unsubscribe"));
        io.micrometer.core.instrument.Gauge.builder(
                        "tributary.session.connects.waiting", connects, RequestBatcher::waiting)
                .description("CONNECTs waiting for a batch call to session-service")
                .register(registry);
    }

    private CompletableFuture<List<ConnectApi.ConnectOutcome>> connectBatch(List<ConnectApi.ConnectRequest> batch) {
        return http.post(
                        SessionApi.CONNECT_BATCH,
                        new ConnectApi.ConnectBatch(batch),
                        ConnectApi.ConnectBatchResponse.class)
                .thenApply(ConnectApi.ConnectBatchResponse::outcomes);
    }

    private CompletableFuture<List<Void>> disconnectBatch(List<DisconnectApi.DisconnectRequest> batch) {
        return http.post(SessionApi.DISCONNECT_BATCH, new DisconnectApi.DisconnectBatch(batch), null)
                .thenApply(ignored -> java.util.Collections.nCopies(batch.size(), (Void) null));
    }

    /**
     * Gathered with the other SUBSCRIBEs of this node into batch calls.
     *
     * @return fails with {@link StaleEpochException} when the connection was taken over, or
     *         {@link UnavailableException}
     */
    public CompletableFuture<SubscribeApi.SubscribeResponse> subscribe(SubscribeApi.SubscribeRequest request) {
        return subscribes.submit(request).thenApply(o -> done(o.done(), o.stale(), o.unavailable()));
    }

    /**
     * SUBSCRIBEs one client pipelined, in the order it sent them: they go in the same batch call, next to each
     * other, and session-service applies them one after the other.
     *
     * @return one answer per request, in order; each fails as {@link #subscribe} does
     */
    public List<CompletableFuture<SubscribeApi.SubscribeResponse>> subscribeAll(
            List<SubscribeApi.SubscribeRequest> requests) {
        return subscribes.submitAll(requests).stream()
                .map(f -> f.thenApply(o -> done(o.done(), o.stale(), o.unavailable())))
                .toList();
    }

    private CompletableFuture<List<SubscribeApi.SubscribeOutcome>> subscribeBatch(
            List<SubscribeApi.SubscribeRequest> batch) {
        return http.post(
                        SessionApi.SUBSCRIBE_BATCH,
                        new SubscribeApi.SubscribeBatch(batch),
                        SubscribeApi.SubscribeBatchResponse.class)
                .thenApply(SubscribeApi.SubscribeBatchResponse::outcomes);
    }

    /**
     * Gathered with the other UNSUBSCRIBEs of this node into batch calls.
     *
     * @return fails with {@link StaleEpochException} when the connection was taken over, or
     *         {@link UnavailableException}
     */
    public CompletableFuture<SubscribeApi.UnsubscribeResponse> unsubscribe(SubscribeApi.UnsubscribeRequest request) {
        return unsubscribes.submit(request).thenApply(o -> done(o.done(), o.stale(), o.unavailable()));
    }

    /**
     * UNSUBSCRIBEs one client pipelined, in the order it sent them: in the same batch call, applied in order.
     *
     * @return one answer per request, in order; each fails as {@link #unsubscribe} does
     */
    public List<CompletableFuture<SubscribeApi.UnsubscribeResponse>> unsubscribeAll(
            List<SubscribeApi.UnsubscribeRequest> requests) {
        return unsubscribes.submitAll(requests).stream()
                .map(f -> f.thenApply(o -> done(o.done(), o.stale(), o.unavailable())))
                .toList();
    }

    private CompletableFuture<List<SubscribeApi.UnsubscribeOutcome>> unsubscribeBatch(
            List<SubscribeApi.UnsubscribeRequest> batch) {
        return http.post(
                        SessionApi.UNSUBSCRIBE_BATCH,
                        new SubscribeApi.UnsubscribeBatch(batch),
                        SubscribeApi.UnsubscribeBatchResponse.class)
                .thenApply(SubscribeApi.UnsubscribeBatchResponse::outcomes);
    }

    /** A batch call's outcome for one request: its answer, or the exception its caller handles. */
    private static <T> T done(T done, String stale, String unavailable) {
        if (stale != null) {
            throw new StaleEpochException(stale);
        }
        if (done == null) {
            throw new UnavailableException("session-service: " + unavailable, null);
        }
        return done;
    }

    /** Gathered with the other ended connections of this node into batch calls. */
    public CompletableFuture<Void> disconnect(DisconnectApi.DisconnectRequest request) {
        return disconnects.submit(request);
    }

    public CompletableFuture<LivenessApi.HeartbeatResponse> heartbeat(LivenessApi.HeartbeatRequest request) {
        return http.post(SessionApi.HEARTBEAT, request, LivenessApi.HeartbeatResponse.class);
    }

    /** The IP entries of the block list; {@code ranges} is null when they are still at {@code knownVersion}. */
    public CompletableFuture<LimitsApi.BlockedIps> blockedIps(String knownVersion) {
        String query = knownVersion == null
                ? ""
                : "?version=" + java.net.URLEncoder.encode(knownVersion, java.nio.charset.StandardCharsets.UTF_8);
        return http.get(SessionApi.BLOCKED_IPS, query, LimitsApi.BlockedIps.class);
    }

    /** The publish quotas of every tenant that has one. */
    public CompletableFuture<LimitsApi.TenantPublishQuotas> tenantPublishQuotas() {
        return http.get(SessionApi.TENANT_PUBLISH_QUOTAS, "", LimitsApi.TenantPublishQuotas.class);
    }
}
