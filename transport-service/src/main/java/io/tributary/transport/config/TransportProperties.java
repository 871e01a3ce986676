package io.tributary.transport.config;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import io.tributary.common.kafka.TopicLayout;
import io.tributary.transport.delivery.SlowConsumerPolicy;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

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
        @Valid @NotNull Redis redis) {

    /**
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
     * @param slowConsumerPolicy   what happens to a QoS 1/2 message beyond the queue or byte limit: dropped, or
     *                             dropped and the subscriber disconnected
     */
    public record Mqtt(
            @NotBlank String host,
            @Min(0) @Max(65535) int port,
            @Min(64) @Max(268_435_455) int maxPacketSize,
            @NotNull Duration connectTimeout,
            @Min(1) @Max(65535) int maxKeepAliveSeconds,
            @Min(1) @Max(65535) int maxInflight,
            @Min(0) int maxQueuedPerConnection,
            @Min(1) @Max(65535) int receiveMaximum,
            @Min(0) @Max(65535) int topicAliasMaximum,
            @Min(0) int ioThreads,
            @NotNull DataSize maxOutboundBytesPerConnection,
            @NotNull SlowConsumerPolicy slowConsumerPolicy) {
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
     */
    public record Kafka(
            @NotBlank String bootstrapServers,
            @Valid @NotNull TopicLayout topics,
            @NotNull Duration maxBlock,
            @NotNull Duration deliveryTimeout,
            @Min(0) int lingerMs,
            @NotNull DataSize maxPendingBytesPerConnection,
            @NotNull DataSize maxPendingBytes) {

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
    }

    /**
     * @param url               base URL of session-service
     * @param heartbeatInterval how often the node tells session-service it is alive; must stay well below
     *                          session-service's node timeout, or a live node is declared dead
     */
    public record Session(@NotNull URI url, @NotNull Duration requestTimeout, @NotNull Duration heartbeatInterval) {
    }
}
