package io.tributary.transport.limits;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Limits a transport node enforces on its clients. Bound from {@code tributary.transport.limits.*}; application.yml
 * maps the documented environment variables onto it. For every limit, 0 means none.
 *
 * @param maxConnections          open client connections of the node (TCP, TLS and WebSocket together, counted from
 *                                accept to close); one more is refused at its CONNECT (MQTT 5 0x97, 3.x code 3)
 * @param connectionRate          new connections per second the node accepts, with {@code connectionBurst} at once;
 *                                beyond, CONNACK 0x9F (3.x code 3)
 * @param connectionRatePerIp     the same per source IP address, with {@code connectionBurstPerIp}
 * @param trackedIps              source addresses the per-IP rate keeps state for at most (bounds its memory)
 * @param publishRate             PUBLISH packets per second per connection, with {@code publishBurst}
 * @param maxPayloadSize          bytes of one PUBLISH payload; keep payload, topic, properties and client id of a
 *                                message below Kafka's maximum record size (1 MiB by default)
 * @param maxSubscriptions        topic filters one session may hold (those it resumed count too)
 * @param maxTopicLevels          levels of a PUBLISH topic, a will topic or a SUBSCRIBE filter
 * @param maxClientIdLength       UTF-8 bytes of a CONNECT's client identifier; a longer one is refused (MQTT 5 0x85,
 *                                3.x return code 2) before session-service sees it, so a client cannot make the
 *                                sessions, the failed-authentication counts and the log lines keyed by client ids
 *                                as large as it likes. 0 or from 23 up: every server must take 1 to 23 bytes (MQTT
 *                                3.1.1 section 3.1.3.1, MQTT 5 section 3.1.3.1)
 * @param maxUsernameLength       UTF-8 bytes of a CONNECT's user name; a longer one is refused (MQTT 5 0x86, 3.x
 *                                return code 4) before session-service sees it
 * @param blockListRefresh        how often the node fetches the IP entries of the block list from session-service
 * @param tenantQuotaRefresh      how often the node fetches the tenants' publish quotas from session-service: a
 *                                changed quota holds on this node at most this much (plus one second) later
 */
@Validated
@ConfigurationProperties("tributary.transport.limits")
public record LimitsProperties(
        @Min(0) int maxConnections,
        @DecimalMin("0") double connectionRate,
        @Min(1) int connectionBurst,
        @DecimalMin("0") double connectionRatePerIp,
        @Min(1) int connectionBurstPerIp,
        @Min(1) int trackedIps,
        @DecimalMin("0") double publishRate,
        @Min(1) int publishBurst,
        @Min(0) int maxPayloadSize,
        @Min(0) int maxSubscriptions,
        @Min(0) int maxTopicLevels,
        @Min(0) @Max(65535) int maxClientIdLength,
        @Min(0) @Max(65535) int maxUsernameLength,
        @NotNull Duration blockListRefresh,
        @NotNull Duration tenantQuotaRefresh) {

    /** The longest client identifier every server must accept (MQTT 3.1.1 and 5, section 3.1.3.1). */
    public static final int MIN_CLIENT_ID_LENGTH = 23;

    /** No limit at all (unit tests of handlers that are not about limits). */
    public static LimitsProperties none() {
        return new LimitsProperties(
                0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    @AssertTrue(
            message = "tributary.transport.limits.max-client-id-length must be 0 (no limit) or at least 23:"
                    + " every server must accept client identifiers of 1 to 23 bytes")
    public boolean isMaxClientIdLengthValid() {
        return maxClientIdLength == 0 || maxClientIdLength >= MIN_CLIENT_ID_LENGTH;
    }

    @AssertTrue(message = "tributary.transport.limits.block-list-refresh must be at least 100ms")
    public boolean isRefreshValid() {
        return blockListRefresh == null || blockListRefresh.toMillis() >= 100;
    }

    @AssertTrue(message = "tributary.transport.limits.tenant-quota-refresh must be at least 100ms")
    public boolean isTenantQuotaRefreshValid() {
        return tenantQuotaRefresh == null || tenantQuotaRefresh.toMillis() >= 100;
    }
}
