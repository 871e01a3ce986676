package io.tributary.common.session;

import io.tributary.common.kafka.PublishProperties;
import java.util.List;

/**
 * The bodies of the CONNECT calls of {@link SessionApi} (one request and the batches the nodes send), with what a
 * CONNECT carries and answers: the will, the connection's ACL and the refusal. Paths and status codes are in
 * {@link SessionApi}.
 */
public final class ConnectApi {

    private ConnectApi() {}

    /**
     * A client passed CONNECT checks on {@code nodeId}. Session-service bumps the client's epoch, records the owner,
     * tells the previous owner node to close its connection (downlink TAKEOVER), and for a clean start discards the
     * old session.
     *
     * @param sessionExpirySeconds 0 = session ends with the connection; for MQTT 3.1.1 clean session = 0 send
     *                             {@code 0xFFFFFFFF} (never expires). Session-service lowers it to its maximum and
     *                             answers the value it uses ({@link ConnectResponse#sessionExpirySeconds})
     * @param nodeIncarnation      the incarnation of the node process (see {@link LivenessApi.HeartbeatRequest});
     *                             sessions are ended by node liveness only for the incarnation that was declared
     *                             dead, so a restarted node's new sessions are never touched. Null from an older
     *                             transport: such sessions are not covered by liveness.
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

    /**
     * A will (MQTT 3.1.3.2 / 3.1.3.3) as the client left it in CONNECT.
     *
     * @param delaySeconds MQTT 5 Will Delay Interval (0 for MQTT 3.x): the will is published that long after the
     *                     connection ended (at most the session expiry), unless the client connects again first
     * @param properties   the will's MQTT 5 properties that travel with the message, or null
     */
    public record Will(
            String topic, byte[] payload, int qos, boolean retain, long delaySeconds, PublishProperties properties) {}

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
     * The ACL of a connection with its placeholders already filled in: topic filters the client may publish to
     * (a PUBLISH topic must match one) and subscribe to (a SUBSCRIBE filter must lie within one). Empty lists allow
     * nothing.
     */
    public record Acl(List<String> publish, List<String> subscribe) {}

    /**
     * Body of a refused CONNECT ({@link SessionApi#CONNECT_REFUSED_STATUS}); {@code message} is safe to show the
     * client.
     */
    public record ConnectRefusal(RefusalReason reason, String message) {}

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

    /** CONNECTs a transport node gathered while its previous calls were under way, answered in one go. */
    public record ConnectBatch(List<ConnectRequest> requests) {}

    /** One outcome per request of a {@link ConnectBatch}, in the same order. */
    public record ConnectBatchResponse(List<ConnectOutcome> outcomes) {}

    /**
     * What became of one CONNECT of a batch: exactly one of the three is set.
     *
     * @param accepted    the session, as {@link SessionApi#CONNECT} answers it
     * @param refused     refused by authentication, authorization or the block list, as {@link SessionApi#CONNECT}
     *                    answers it with {@link SessionApi#CONNECT_REFUSED_STATUS}
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
}
