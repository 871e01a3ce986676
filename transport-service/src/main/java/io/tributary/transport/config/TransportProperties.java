package io.tributary.transport.config;

import io.tributary.common.kafka.TopicLayout;
import io.tributary.transport.delivery.SlowConsumerPolicy;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Everything a transport node can be told. Bound from {@code tributary.transport.*}; application.yml maps the
 * documented environment variables onto it.
 *
 * @param nodeId identity of this node; names its downlink topic, so it must be stable across restarts of the
 *               same pod and unique in the cluster
 */
@Validated
@ConfigurationProperties("tributary.transport")
public record TransportProperties(
        @NotBlank @Pattern(regexp = "[A-Za-z0-9._-]{1,200}") String nodeId,
        @Valid @NotNull Mqtt mqtt,
        @Valid @NotNull Kafka kafka,
        @Valid @NotNull Session session,
        @Valid @NotNull Redis redis,
        @Valid @NotNull Tls tls,
        @Valid @NotNull WebSocket websocket) {

    /** Listeners must not share a port: a clash would only show up as a bind error half-way through start-up. */
    @AssertTrue(message = "the MQTT, TLS, WebSocket and secure WebSocket listeners need distinct ports")
    public boolean isListenerPortsDistinct() {
        if (mqtt == null || tls == null || websocket == null) {
            return true;
        }
        java.util.List<Integer> ports = new java.util.ArrayList<>();
        if (mqtt.plainEnabled()) {
            ports.add(mqtt.port());
        }
        if (tls.enabled()) {
            ports.add(tls.port());
        }
        if (websocket.enabled()) {
            ports.add(websocket.port());
        }
        if (websocket.secureEnabled(tls)) {
            ports.add(websocket.securePort());
        }
        // Port 0 (ephemeral) never clashes.
        return ports.stream().filter(p -> p != 0).distinct().count()
                == ports.stream().filter(p -> p != 0).count();
    }

    /**
     * A node with the plain listener off must open another, or no client could ever reach it; failing the start says
     * so, where a node with no listener would only look healthy.
     */
    @AssertTrue(
            message = "MQTT_PLAIN_ENABLED=false (tributary.transport.mqtt.plain-enabled) leaves the node no listener:"
                    + " turn on MQTT over TLS (MQTT_TLS_CERT and MQTT_TLS_KEY) or a WebSocket listener")
    public boolean isSomeListenerOpen() {
        if (mqtt == null || tls == null || websocket == null || mqtt.plainEnabled()) {
            return true;
        }
        return tls.enabled() || websocket.enabled() || websocket.secureEnabled(tls);
    }

    /**
     * @param plainEnabled         whether the plain MQTT listener ({@code port}) opens; off, clients reach the node
     *                             only through MQTT over TLS or WebSocket, and one of them must be on
     * @param maxPacketSize        largest packet accepted from a client, in bytes (CONNACK Maximum Packet Size)
     * @param connectTimeout       a connection that has not sent CONNECT by then is closed
     * @param maxKeepAliveSeconds  MQTT 5 server keep alive: a larger client keep alive is lowered to this
     * @param maxInflight          outbound QoS 1/2 messages awaiting acknowledgement per connection (our cap on
     *                             top of the client's Receive Maximum)
     * @param maxQueuedPerConnection outbound QoS 1/2 messages waiting for an in-flight slot; beyond it they are
     *                             dropped and counted
     * @param receiveMaximum       inbound QoS 1/2 publishes a client may have unacknowledged (CONNACK Receive
     *                             Maximum)
     * @param topicAliasMaximum    topic aliases an MQTT 5 client may define per connection (CONNACK Topic Alias
     *                             Maximum); 0 refuses aliases
     * @param maxOutboundBytesPerConnection bytes of outbound QoS 1/2 messages held per connection (in flight and
     *                             queued); with the socket's high water mark this bounds what a subscriber that stops
     *                             reading costs
     * @param maxOutboundBytesPerNode bytes of outbound QoS 1/2 messages held for all the node's connections together;
     *                             once reached, a message that would wait for its subscriber gets the slow-consumer
     *                             policy and session queues hand over nothing more. 0: a quarter of the heap
     * @param slowConsumerPolicy   what happens to a QoS 1/2 message beyond the queue or byte limit: dropped, or
     *                             dropped and the subscriber disconnected
     */
    public record Mqtt(
            @NotBlank String host,
            @Min(0) @Max(65535) int port,
            boolean plainEnabled,
            @Min(64) @Max(268_435_455) int maxPacketSize,
            @NotNull Duration connectTimeout,
            @Min(1) @Max(65535) int maxKeepAliveSeconds,
            @Min(1) @Max(65535) int maxInflight,
            @Min(0) int maxQueuedPerConnection,
            @Min(1) @Max(65535) int receiveMaximum,
            @Min(0) @Max(65535) int topicAliasMaximum,
            @Min(0) int ioThreads,
            @NotNull DataSize maxOutboundBytesPerConnection,
            @NotNull DataSize maxOutboundBytesPerNode,
            @NotNull SlowConsumerPolicy slowConsumerPolicy) {

        public Mqtt {
            if (maxOutboundBytesPerNode != null && maxOutboundBytesPerNode.isNegative()) {
                throw new IllegalArgumentException(
                        "MQTT_MAX_OUTBOUND_BYTES_PER_NODE (tributary.mqtt.max-outbound-bytes-per-node) must be 0 (a"
                                + " quarter of the heap) or more: " + maxOutboundBytesPerNode);
            }
        }
    }

    /**
     * @param topics    layout of the topics, shared with the other services
     * @param maxBlock  longest a produce may block the caller (metadata or a full buffer); bounded small because the
     *                  caller is an event loop
     * @param maxPendingBytesPerConnection bytes of one connection's publishes waiting for Kafka; above it the node
     *                  stops reading from that client until half of it is acknowledged
     * @param maxPendingBytes bytes of all publishes of the node waiting for Kafka; above it the node stops reading
     *                  from every client that publishes until half of it is acknowledged. Kept below the producer's
     *                  buffer.memory (32 MiB), so a send never blocks an event loop on a full buffer
     * @param compression compression.type of the producer; lz4 by default: at 20,000 publishes/s it halved the bytes sent and stored (ratio 0.58) for no measurable CPU (docs/benchmarks-history.md, section 12)
     */
    public record Kafka(
            @NotBlank String bootstrapServers,
            @Valid @NotNull TopicLayout topics,
            @NotNull Duration maxBlock,
            @NotNull Duration deliveryTimeout,
            @Min(0) int lingerMs,
            @NotNull DataSize maxPendingBytesPerConnection,
            @NotNull DataSize maxPendingBytes,
            @NotNull org.apache.kafka.common.record.CompressionType compression) {

        @AssertTrue(message = "max-pending-bytes must be below the producer's buffer.memory (32 MiB)")
        public boolean isMaxPendingBelowProducerBuffer() {
            return maxPendingBytes == null || maxPendingBytes.toBytes() < PRODUCER_BUFFER_MEMORY;
        }
    }

    /** Kafka's default buffer.memory, which the publish producer keeps. */
    public static final long PRODUCER_BUFFER_MEMORY = 32L * 1024 * 1024;

    /**
     * Redis holding the session queues of persistent sessions (shared with routing-service and session-service).
     *
     * @param url            {@code redis://host:port}
     * @param commandTimeout longest wait for an answer; a failed read is retried, a failed acknowledgement means
     *                       the message is sent again at the next connection
     */
    public record Redis(@NotBlank String url, @NotNull Duration commandTimeout) {

        @Override
        public String toString() {
            return "Redis[url=" + io.tributary.redis.RedisSettings.redacted(url) + ", commandTimeout=" + commandTimeout
                    + "]";
        }
    }

    /**
     * @param url               base URL of session-service's internal API; several (comma-separated) for instances
     *                          not behind one load-balanced address: calls go round robin and fail over
     * @param heartbeatInterval how often the node tells session-service it is alive; must stay well below
     *                          session-service's node timeout, or a live node is declared dead
     * @param internalToken     the transport nodes' internal API token (session-service's
     *                          {@code TRIBUTARY_INTERNAL_TRANSPORT_TOKEN}; the routing nodes have another); session-service
     *                          refuses internal calls without it, so the node does not start without one
     * @param maxInFlight       batch calls of each kind (CONNECT, disconnect) under way at once
     * @param maxBatch          requests per batch call at most
     * @param maxWaitingConnects CONNECTs waiting for a batch call at most; beyond, CONNACK 0x89 server busy at once
     * @param maxConnectWait    a CONNECT that waited longer for its batch call is refused with 0x89 (its client has
     *                          most likely given up)
     */
    public record Session(
            @NotEmpty List<URI> url,
            @NotNull Duration requestTimeout,
            @NotNull Duration heartbeatInterval,
            @NotBlank String internalToken,
            @Min(1) int maxInFlight,
            @Min(1) int maxBatch,
            @Min(1) int maxWaitingConnects,
            @NotNull Duration maxConnectWait) {

        /** Without the internal token: settings end up in logs and error messages. */
        @Override
        public String toString() {
            return "Session[url=" + url + ", requestTimeout=" + requestTimeout + ", heartbeatInterval="
                    + heartbeatInterval + ", internalToken=(redacted), maxInFlight=" + maxInFlight + ", maxBatch="
                    + maxBatch + ", maxWaitingConnects=" + maxWaitingConnects + ", maxConnectWait=" + maxConnectWait
                    + "]";
        }

        /** With the default batching (tests). */
        public static Session of(URI url, Duration requestTimeout, Duration heartbeatInterval, String internalToken) {
            return new Session(
                    List.of(url),
                    requestTimeout,
                    heartbeatInterval,
                    internalToken,
                    4,
                    500,
                    10_000,
                    Duration.ofSeconds(5));
        }

        public io.tributary.transport.sessionclient.SessionServiceClient.Batching batching() {
            return new io.tributary.transport.sessionclient.SessionServiceClient.Batching(
                    maxInFlight, maxBatch, maxWaitingConnects, maxConnectWait);
        }
    }

    /**
     * The MQTT over TLS listener, also used by the secure WebSocket listener. Off unless a certificate and key are
     * configured. Certificates are PEM files re-read when they change (see {@code listener/tls/ReloadingSslContext}).
     *
     * @param port             TLS listener port; null or 0 disables the listener (secure WebSocket can still run)
     * @param cert             PEM certificate chain, server certificate first; empty = TLS off
     * @param key              PEM private key (PKCS#8, unencrypted) matching the certificate
     * @param clientAuth       whether clients must present a certificate signed by {@code ca}
     * @param ca               PEM bundle of CAs trusted for client certificates; required unless clientAuth is none
     * @param handshakeTimeout a TLS handshake not finished by then is aborted
     * @param reloadInterval   how often the certificate, key and CA files are checked for changes
     * @param provider         {@code auto} uses OpenSSL (netty-tcnative BoringSSL) when it loads, else the JDK
     * @param sessionCacheSize TLS sessions kept for resumption (TLS 1.2 session ids)
     * @param sessionTimeout   how long a TLS session (or TLS 1.3 ticket) may be resumed
     */
    public record Tls(
            @Min(0) @Max(65535) Integer port,
            String cert,
            String key,
            @NotNull ClientAuthMode clientAuth,
            String ca,
            @NotNull Duration handshakeTimeout,
            @NotNull Duration reloadInterval,
            @NotNull Provider provider,
            @Min(0) int sessionCacheSize,
            @NotNull Duration sessionTimeout) {

        public enum ClientAuthMode {
            NONE,
            OPTIONAL,
            REQUIRED
        }

        /** No TLS (the application.yml defaults without a certificate). */
        public static Tls off() {
            return new Tls(
                    8883,
                    null,
                    null,
                    ClientAuthMode.NONE,
                    null,
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(10),
                    Provider.AUTO,
                    20_000,
                    Duration.ofHours(1));
        }

        public enum Provider {
            AUTO,
            OPENSSL,
            JDK
        }

        /** A certificate is configured: TLS can be served (on this listener and on secure WebSocket). */
        public boolean configured() {
            return cert != null && !cert.isBlank();
        }

        /** The MQTT over TLS listener runs. */
        public boolean enabled() {
            return configured() && port != null && port > 0;
        }

        @AssertTrue(message = "tls: a certificate (MQTT_TLS_CERT) needs its private key (MQTT_TLS_KEY) and vice versa")
        public boolean isKeyWithCertificate() {
            return configured() == (key != null && !key.isBlank());
        }

        @AssertTrue(message = "tls: client-auth optional or required needs a CA bundle (MQTT_TLS_CA)")
        public boolean isCaForClientAuth() {
            return clientAuth == null || clientAuth == ClientAuthMode.NONE || (ca != null && !ca.isBlank());
        }

        @AssertTrue(message = "tls: handshake-timeout and reload-interval must be positive")
        public boolean isDurationsPositive() {
            return handshakeTimeout == null
                    || reloadInterval == null
                    || sessionTimeout == null
                    || (!handshakeTimeout.isNegative()
                            && !handshakeTimeout.isZero()
                            && !reloadInterval.isNegative()
                            && !reloadInterval.isZero()
                            && !sessionTimeout.isNegative());
        }
    }

    /**
     * MQTT over WebSocket (RFC 6455, MQTT 5 section 6): binary frames carry the MQTT byte stream.
     *
     * @param port       plain WebSocket port; null or 0 disables it (the default: opt-in, see docs/securing.md)
     * @param securePort secure WebSocket port, served with the {@link Tls} certificate and client-auth settings;
     *                   null or 0 disables it, and it only runs when a TLS certificate is configured
     * @param path       HTTP path of the upgrade request
     */
    public record WebSocket(
            @Min(0) @Max(65535) Integer port,
            @Min(0) @Max(65535) Integer securePort,

            @NotBlank @Pattern(regexp = "/[A-Za-z0-9._~/-]*")
            String path) {

        /** No WebSocket listeners (the application.yml defaults without a certificate). */
        public static WebSocket off() {
            return new WebSocket(null, 8084, "/mqtt");
        }

        public boolean enabled() {
            return port != null && port > 0;
        }

        public boolean secureEnabled(Tls tls) {
            return securePort != null && securePort > 0 && tls.configured();
        }
    }
}
