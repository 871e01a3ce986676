package io.tributary.transport.config;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import io.tributary.common.kafka.TopicLayout;
import jakarta.validation.Valid;
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
        @Valid @NotNull Session session) {

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
            @Min(0) int ioThreads) {
    }

    /**
     * @param topics    layout of the topics, shared with the other services
     * @param maxBlock  longest a produce may block the caller (metadata or a full buffer); bounded small because the
     *                  caller is an event loop
     */
    public record Kafka(
            @NotBlank String bootstrapServers,
            @Valid @NotNull TopicLayout topics,
            @NotNull Duration maxBlock,
            @NotNull Duration deliveryTimeout,
            @Min(0) int lingerMs) {
    }

    /**
     * @param url               base URL of session-service
     * @param heartbeatInterval how often the node tells session-service it is alive; must stay well below
     *                          session-service's node timeout, or a live node is declared dead
     */
    public record Session(@NotNull URI url, @NotNull Duration requestTimeout, @NotNull Duration heartbeatInterval) {
    }
}
