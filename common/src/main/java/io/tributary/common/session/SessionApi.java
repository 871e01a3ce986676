package io.tributary.common.session;

/**
 * The internal HTTP API that transport nodes (and, for the tenants' quotas, routing nodes) call on session-service
 * (JSON bodies). All calls are idempotent for a
 * given epoch; session-service answers 409 when the caller's epoch is not the client's current one (the connection
 * was taken over), 503 when it cannot reach its stores or Kafka.
 *
 * <p>This class holds the paths, the token header and the status codes; the bodies are in one class per call family:
 * {@link ConnectApi}, {@link SubscribeApi}, {@link DisconnectApi}, {@link LivenessApi} and {@link LimitsApi}.
 */
public final class SessionApi {

    public static final String CONNECT = "/internal/v1/sessions/connect";
    /**
     * Many CONNECTs of one node in one call ({@link ConnectApi.ConnectBatch} in,
     * {@link ConnectApi.ConnectBatchResponse} out).
     */
    public static final String CONNECT_BATCH = "/internal/v1/sessions/connect-batch";
    /**
     * Many SUBSCRIBEs of one node's connections in one call ({@link SubscribeApi.SubscribeBatch} in,
     * {@link SubscribeApi.SubscribeBatchResponse} out).
     */
    public static final String SUBSCRIBE_BATCH = "/internal/v1/sessions/subscribe-batch";
    /**
     * Many UNSUBSCRIBEs of one node's connections in one call ({@link SubscribeApi.UnsubscribeBatch} in,
     * {@link SubscribeApi.UnsubscribeBatchResponse} out). There is no single-request form.
     */
    public static final String UNSUBSCRIBE_BATCH = "/internal/v1/sessions/unsubscribe-batch";
    /**
     * Many ended connections of one node in one call ({@link DisconnectApi.DisconnectBatch}); 200 with an empty body.
     */
    public static final String DISCONNECT_BATCH = "/internal/v1/sessions/disconnect-batch";
    /**
     * Header carrying the caller's internal API token ({@code TRIBUTARY_INTERNAL_TOKEN}: the transport nodes' or the
     * routing nodes', one per role) on every internal call; session-service answers 401 without a token it knows and
     * 403 when the endpoint is not for the caller's role (only {@link #TENANT_PUBLISH_QUOTAS} is the routing nodes').
     */
    public static final String TOKEN_HEADER = "X-Tributary-Internal-Token";

    public static final String SUBSCRIBE = "/internal/v1/sessions/subscribe";
    public static final String DISCONNECT = "/internal/v1/sessions/disconnect";
    public static final String HEARTBEAT = "/internal/v1/nodes/heartbeat";
    /**
     * GET, optional query parameter {@code version}: the IP entries of the block list ({@link LimitsApi.BlockedIps}).
     */
    public static final String BLOCKED_IPS = "/internal/v1/blocklist/ips";
    /** GET: the publish quotas of every tenant that has one ({@link LimitsApi.TenantPublishQuotas}). */
    public static final String TENANT_PUBLISH_QUOTAS = "/internal/v1/tenants/publish-quotas";

    /** HTTP status of a CONNECT that session-service refused; the body is a {@link ConnectApi.ConnectRefusal}. */
    public static final int CONNECT_REFUSED_STATUS = 403;

    private SessionApi() {}
}
