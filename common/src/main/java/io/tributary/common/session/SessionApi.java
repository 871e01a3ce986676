package io.tributary.common.session;

import io.tributary.common.kafka.PublishProperties;
import java.util.List;

/**
 * The internal HTTP API that transport nodes call on session-service (JSON bodies). All calls are idempotent for a
 * given epoch; session-service answers 409 when the caller's epoch is not the client's current one (the connection
 * was taken over), 503 when it cannot reach its stores or Kafka.
 */
public final class SessionApi {

    public static final String CONNECT = "/internal/v1/sessions/connect";
    /** Many CONNECTs of one node in one call ({@link ConnectBatch} in, {@link ConnectBatchResponse} out). */
    public static final String CONNECT_BATCH = "/internal/v1/sessions/connect-batch";
    /** Many SUBSCRIBEs of one node's connections in one call ({@link SubscribeBatch} in, {@link SubscribeBatchResponse} out). */
    public static final String SUBSCRIBE_BATCH = "/internal/v1/sessions/subscribe-batch";
    /**
     * Many UNSUBSCRIBEs of one node's connections in one call ({@link UnsubscribeBatch} in,
     * {@link UnsubscribeBatchResponse} out). There is no single-request form.
     */
    public static final String UNSUBSCRIBE_BATCH = "/internal/v1/sessions/unsubscribe-batch";
    /** Many ended connections of one node in one call ({@link DisconnectBatch}); 200 with an empty body. */
    public static final String DISCONNECT_BATCH = "/internal/v1/sessions/disconnect-batch";
    /**
     * Header carrying the deployment's internal API secret ({@code TRIBUTARY_INTERNAL_TOKEN}) on every internal call;
     * session-service answers 401 without it.
     */
    public static final String TOKEN_HEADER = "X-Tributary-Internal-Token";

    public static final String SUBSCRIBE = "/internal/v1/sessions/subscribe";
    public static final String DISCONNECT = "/internal/v1/sessions/disconnect";
    public static final String HEARTBEAT = "/internal/v1/nodes/heartbeat";
    /** GET, optional query parameter {@code version}: the IP entries of the block list ({@link BlockedIps}). */
    public static final String BLOCKED_IPS = "/internal/v1/blocklist/ips";
    /** GET: the publish quotas of every tenant that has one ({@link TenantPublishQuotas}). */
    public static final String TENANT_PUBLISH_QUOTAS = "/internal/v1/tenants/publish-quotas";

    private SessionApi() {}

    /**
     * A client passed CONNECT checks on {@code nodeId}. Session-service bumps the client's epoch, records the owner,
     * tells the previous owner node to close its connection (downlink TAKEOVER), and for a clean start discards the
     * old session.
     *
     * @param sessionExpirySeconds 0 = session ends with the connection; for MQTT 3.1.1 clean session = 0 send
     *                             {@code 0xFFFFFFFF} (never expires). Session-service lowers it to its maximum and
     *                             answers the value it uses ({@link ConnectResponse#sessionExpirySeconds})
     * @param nodeIncarnation      the incarnation of the node process (see {@link HeartbeatRequest}); sessions are
     *                             ended by node liveness only for the incarnation that was declared dead, so a
     *                             restarted node's new sessions are never touched. Null from an older transport:
     *                             such sessions are not covered by liveness.
     * @param will                 the client's will, or null; stored so that it is published even if the node dies
     * @param password             the CONNECT password as sent (MQTT allows binary data), or null; session-service
     *                             verifies it against the stored hash, or as a JWT when JWT authentication is on and
     *                             it is one, and never stores or logs it
     * @param certificateCommonName the CN of the client certificate the client presented on a mutual-TLS listener
     *                             (verified against the configured CA), or null (no TLS, or no certificate): lets
     *                             authentication map a certificate to credentials. Session-service does not store it
     * @param warmUp               the node's own warm-up client ({@code tributary.warm-up}), which reaches the node
     *                             through an in-process channel no outside client can open: session-service admits
     *                             it without credentials, held to the node's warm-up namespace
     *                             ({@link WarmUpNamespace}). False from an older transport
     */
    public record ConnectRequest(
            String clientId,
            String nodeId,
            boolean cleanStart,
            long sessionExpirySeconds,
            int protocolVersion,
            int keepAliveSeconds,
            String remoteAddress,
            String username,
            String nodeIncarnation,
            Will will,
            byte[] password,
            String certificateCommonName,
            boolean warmUp) {

        public ConnectRequest(
                String clientId,
                String nodeId,
                boolean cleanStart,
                long sessionExpirySeconds,
                int protocolVersion,
                int keepAliveSeconds,
                String remoteAddress,
                String username,
                String nodeIncarnation,
                Will will,
                byte[] password,
                String certificateCommonName) {
            this(
                    clientId,
                    nodeId,
                    cleanStart,
                    sessionExpirySeconds,
                    protocolVersion,
                    keepAliveSeconds,
                    remoteAddress,
                    username,
                    nodeIncarnation,
                    will,
                    password,
                    certificateCommonName,
                    false);
        }

        public ConnectRequest(
                String clientId,
                String nodeId,
                boolean cleanStart,
                long sessionExpirySeconds,
                int protocolVersion,
                int keepAliveSeconds,
                String remoteAddress,
                String username,
                String nodeIncarnation,
                Will will) {
            this(
                    clientId,
                    nodeId,
                    cleanStart,
                    sessionExpirySeconds,
                    protocolVersion,
                    keepAliveSeconds,
                    remoteAddress,
                    username,
                    nodeIncarnation,
                    will,
                    null,
                    null);
        }

        public ConnectRequest(
                String clientId,
                String nodeId,
                boolean cleanStart,
                long sessionExpirySeconds,
                int protocolVersion,
                int keepAliveSeconds,
                String remoteAddress,
                String username) {
            this(
                    clientId,
                    nodeId,
                    cleanStart,
                    sessionExpirySeconds,
                    protocolVersion,
                    keepAliveSeconds,
                    remoteAddress,
                    username,
                    null,
                    null,
                    null,
                    null);
        }

        /** The same CONNECT asking for {@code seconds} of session expiry. */
        public ConnectRequest withSessionExpirySeconds(long seconds) {
            return seconds == sessionExpirySeconds
                    ? this
                    : new ConnectRequest(
                            clientId,
                            nodeId,
                            cleanStart,
                            seconds,
                            protocolVersion,
                            keepAliveSeconds,
                            remoteAddress,
                            username,
                            nodeIncarnation,
                            will,
                            password,
                            certificateCommonName,
                            warmUp);
        }

        @Override
        public String toString() {
            // Records print every component; the password must never reach a log line.
            return "ConnectRequest[clientId=" + clientId + ", nodeId=" + nodeId + ", username=" + username
                    + ", password=" + (password == null ? "none" : "***") + "]";
        }
    }

    /** CONNECTs a transport node gathered while its previous calls were under way, answered in one go. */
    public record ConnectBatch(List<ConnectRequest> requests) {}

    /** One outcome per request of a {@link ConnectBatch}, in the same order. */
    public record ConnectBatchResponse(List<ConnectOutcome> outcomes) {}

    /**
     * What became of one CONNECT of a batch: exactly one of the three is set.
     *
     * @param accepted    the session, as {@link #CONNECT} answers it
     * @param refused     refused by authentication, authorization or the block list, as {@link #CONNECT} answers it
     *                    with {@link #CONNECT_REFUSED_STATUS}
     * @param unavailable why this one could not be done now (the client is told server unavailable and may retry)
     */
    public record ConnectOutcome(ConnectResponse accepted, ConnectRefusal refused, String unavailable) {

        public static ConnectOutcome accepted(ConnectResponse response) {
            return new ConnectOutcome(response, null, null);
        }

        public static ConnectOutcome refused(ConnectRefusal refusal) {
            return new ConnectOutcome(null, refusal, null);
        }

        public static ConnectOutcome unavailable(String why) {
            return new ConnectOutcome(null, null, why);
        }
    }

    /** Ended connections of one node, applied in one go (each as {@link #DISCONNECT} would). */
    public record DisconnectBatch(List<DisconnectRequest> requests) {}

    /** HTTP status of a CONNECT that session-service refused; the body is a {@link ConnectRefusal}. */
    public static final int CONNECT_REFUSED_STATUS = 403;

    /** Why a CONNECT was refused by authentication or authorization. */
    public enum RefusalReason {
        /** Unknown user name or client id with credentials, missing or wrong password: MQTT 5 0x86, 3.1.1 code 4. */
        BAD_USERNAME_OR_PASSWORD,
        /**
         * Authenticated (or anonymous) but not allowed: anonymous access disabled, a blocked credential, or a will
         * topic outside the publish ACL: MQTT 5 0x87, 3.1.1 code 5.
         */
        NOT_AUTHORIZED,
        /** The client id, user name or source address is on the block list: MQTT 5 0x8A, 3.1.1 code 5. */
        BANNED,
        /**
         * Its tenant has as many clients connected as its quota allows: MQTT 5 0x97 (quota exceeded), 3.1.1 code 3
         * (server unavailable: the client tries again later). A session-service that sends it needs transport nodes
         * that know it: upgrade transport nodes first. Also sent when a new persistent session would exceed its
         * tenant's session quota.
         */
        QUOTA_EXCEEDED,
        /**
         * Its tenant connected as many clients this second as its CONNECT rate allows: MQTT 5 0x9F (connection rate
         * exceeded), 3.1.1 code 3 (server unavailable). Like {@link #QUOTA_EXCEEDED}, upgrade transport nodes first.
         */
        CONNECTION_RATE_EXCEEDED
    }

    /**
     * The IP entries (addresses and CIDR ranges) of the block list, for transport nodes to refuse such clients
     * before calling session-service. {@code version} changes whenever the IP entries change; asked with the
     * version it has, a node gets {@code ranges} null when nothing changed.
     */
    public record BlockedIps(String version, List<String> ranges) {}

    /**
     * A tenant's publish quotas, summed over its clients on every transport node.
     *
     * @param maxPublishRate      PUBLISH packets per second; null: no limit
     * @param maxPublishBytesRate payload bytes per second; null: no limit
     * @param retainedFull        the tenant has a retained-message quota and holds that many retained messages: a
     *                            node refuses its retained PUBLISHes with a payload (0x97). False (or absent, from a
     *                            session-service older than the retained quota) otherwise.
     * @param maxQueuedMessages   messages each of the tenant's persistent sessions' queues holds at most, for the
     *                            routers (the global queue limit applies when lower); null: the global limit
     * @param maxDeliveryBytesRate payload bytes per second delivered to the tenant's clients, summed over every
     *                            transport node; null: no limit (and absent from a session-service older than it)
     */
    public record TenantPublishQuota(
            String tenant,
            Integer maxPublishRate,
            Long maxPublishBytesRate,
            boolean retainedFull,
            Integer maxQueuedMessages,
            Long maxDeliveryBytesRate) {

        /** A tenant without a delivery quota. */
        public TenantPublishQuota(
                String tenant,
                Integer maxPublishRate,
                Long maxPublishBytesRate,
                boolean retainedFull,
                Integer maxQueuedMessages) {
            this(tenant, maxPublishRate, maxPublishBytesRate, retainedFull, maxQueuedMessages, null);
        }

        /** A tenant with publish rates only. */
        public TenantPublishQuota(String tenant, Integer maxPublishRate, Long maxPublishBytesRate) {
            this(tenant, maxPublishRate, maxPublishBytesRate, false, null, null);
        }

        /** A tenant with publish rates and a retained quota, without a queued-message quota. */
        public TenantPublishQuota(
                String tenant, Integer maxPublishRate, Long maxPublishBytesRate, boolean retainedFull) {
            this(tenant, maxPublishRate, maxPublishBytesRate, retainedFull, null, null);
        }
    }

    /**
     * Every tenant with a publish, delivery, retained-message or queued-message quota; a tenant not listed has none.
     */
    public record TenantPublishQuotas(List<TenantPublishQuota> tenants) {}

    /** Body of a refused CONNECT ({@link #CONNECT_REFUSED_STATUS}); {@code message} is safe to show the client. */
    public record ConnectRefusal(RefusalReason reason, String message) {}

    /**
     * The ACL of a connection with its placeholders already filled in: topic filters the client may publish to
     * (a PUBLISH topic must match one) and subscribe to (a SUBSCRIBE filter must lie within one). Empty lists allow
     * nothing.
     */
    public record Acl(List<String> publish, List<String> subscribe) {}

    /**
     * A will (MQTT 3.1.3.2 / 3.1.3.3) as the client left it in CONNECT.
     *
     * @param delaySeconds MQTT 5 Will Delay Interval (0 for MQTT 3.x): the will is published that long after the
     *                     connection ended (at most the session expiry), unless the client connects again first
     * @param properties   the will's MQTT 5 properties that travel with the message, or null
     */
    public record Will(
            String topic, byte[] payload, int qos, boolean retain, long delaySeconds, PublishProperties properties) {}

    /** What became of a connection's will when the connection ended (told to session-service at disconnect). */
    public enum WillOutcome {
        /** No will, or a normal DISCONNECT without reason 0x04: the will is deleted, never published. */
        DISCARD,
        /** The node published it itself (no will delay): session-service deletes its copy. */
        PUBLISHED,
        /** Session-service publishes it min(will delay, session expiry) after now, unless the client returns. */
        SCHEDULE
    }

    /**
     * @param subscriptions the subscriptions of a resumed session (already re-pointed to the new node in the feed);
     *                      empty when {@code sessionPresent} is false
     * @param acl           what the connection may publish and subscribe to, enforced by the transport node; null
     *                      when unrestricted (anonymous access where it is enabled)
     * @param authenticationExpiresAt epoch milliseconds at which the client's authentication runs out (a JWT's
     *                      expiry plus the allowed clock skew): the transport node closes the connection then (MQTT 5
     *                      DISCONNECT 0xA0). Null: it does not expire (passwords, certificates, anonymous)
     * @param tenant        the tenant of the credential the client authenticated with: the transport node mounts
     *                      the connection's topics under {@code $tenant/<id>/} ({@code common.tenant.TenantNamespace}).
     *                      Null: the global namespace (no tenant, anonymous), names used as they are. The will and
     *                      {@code subscriptions} are already in the tenant's namespace
     * @param sessionExpirySeconds the Session Expiry Interval the session has: the requested one, lowered to
     *                      session-service's maximum ({@code SESSION_EXPIRY_MAX}); the node uses it and tells an
     *                      MQTT 5 client when it differs (CONNACK, MQTT 5 3.2.2.3.2). Null from an older
     *                      session-service: the requested one
     */
    public record ConnectResponse(
            long epoch,
            boolean sessionPresent,
            List<SubscribeApi.Subscription> subscriptions,
            Acl acl,
            Long authenticationExpiresAt,
            String tenant,
            Long sessionExpirySeconds) {

        public ConnectResponse(
                long epoch,
                boolean sessionPresent,
                List<SubscribeApi.Subscription> subscriptions,
                Acl acl,
                Long authenticationExpiresAt,
                String tenant) {
            this(epoch, sessionPresent, subscriptions, acl, authenticationExpiresAt, tenant, null);
        }

        public ConnectResponse(
                long epoch,
                boolean sessionPresent,
                List<SubscribeApi.Subscription> subscriptions,
                Acl acl,
                Long authenticationExpiresAt) {
            this(epoch, sessionPresent, subscriptions, acl, authenticationExpiresAt, null);
        }

        public ConnectResponse(
                long epoch, boolean sessionPresent, List<SubscribeApi.Subscription> subscriptions, Acl acl) {
            this(epoch, sessionPresent, subscriptions, acl, null, null);
        }

        public ConnectResponse(long epoch, boolean sessionPresent, List<SubscribeApi.Subscription> subscriptions) {
            this(epoch, sessionPresent, subscriptions, null, null, null);
        }
    }

    /**
     * The connection of epoch {@code epoch} ended. Ignored when the epoch is no longer current (taken over).
     *
     * @param sessionExpirySeconds the expiry in force at the end (MQTT 5 DISCONNECT may change it); 0 removes the
     *                             session and its subscriptions now
     * @param will                 what to do with the stored will; null (an older transport, which published wills
     *                             itself) is treated as {@link WillOutcome#PUBLISHED}
     */
    public record DisconnectRequest(
            String clientId, long epoch, String nodeId, long sessionExpirySeconds, WillOutcome will) {

        public DisconnectRequest(String clientId, long epoch, String nodeId, long sessionExpirySeconds) {
            this(clientId, epoch, nodeId, sessionExpirySeconds, WillOutcome.DISCARD);
        }
    }

    /**
     * A transport node is alive. Sent every few seconds; a node not heard of for the configured timeout is declared
     * dead and the sessions still connected on that incarnation are ended (wills published).
     *
     * @param incarnation random id of this process, new at every start: a restarted node with the same node id is a
     *                    new incarnation, and only the old one's sessions are ended
     */
    public record HeartbeatRequest(String nodeId, String incarnation) {}

    /**
     * @param declaredDead true when this incarnation was already declared dead (it missed heartbeats): its sessions
     *                     were ended, so the node must close its connections without wills and start a new
     *                     incarnation before accepting clients again
     */
    public record HeartbeatResponse(boolean declaredDead) {}
}
