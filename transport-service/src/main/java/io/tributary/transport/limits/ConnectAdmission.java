package io.tributary.transport.limits;

import static io.netty.handler.codec.mqtt.MqttConnectReturnCode.CONNECTION_REFUSED_BANNED;
import static io.netty.handler.codec.mqtt.MqttConnectReturnCode.CONNECTION_REFUSED_CONNECTION_RATE_EXCEEDED;
import static io.netty.handler.codec.mqtt.MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED;
import static io.netty.handler.codec.mqtt.MqttConnectReturnCode.CONNECTION_REFUSED_QUOTA_EXCEEDED;
import static io.netty.handler.codec.mqtt.MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_UNAVAILABLE;

import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.tributary.common.net.IpRangeSet;
import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Decides, when a client connection opens, whether the node takes it: the source IP is not on the block list, the
 * node is under its connection limit, and neither the node's nor the IP's connection rate is exceeded. Shared by all
 * event loops; the state is an atomic counter, lock-free token buckets and a volatile block list, so no loop waits
 * for another. The verdict is answered when the CONNECT arrives (see {@link AdmissionHandler}).
 */
public final class ConnectAdmission {

    /**
     * Why a connection is refused: the metric reason and the CONNACK codes (MQTT 5, MQTT 3.x). 3.x has no banned,
     * quota or rate code: a blocked address gets 5 (not authorized), a limit 3 (server unavailable).
     */
    public enum Refusal {
        BLOCKED_IP(
                LimitRefusals.BLOCKED_IP,
                CONNECTION_REFUSED_BANNED,
                CONNECTION_REFUSED_NOT_AUTHORIZED,
                "source address is on the block list"),
        CONNECTIONS(
                LimitRefusals.CONNECTIONS,
                CONNECTION_REFUSED_QUOTA_EXCEEDED,
                CONNECTION_REFUSED_SERVER_UNAVAILABLE,
                "node connection limit reached"),
        CONNECTION_RATE_IP(
                LimitRefusals.CONNECTION_RATE_IP,
                CONNECTION_REFUSED_CONNECTION_RATE_EXCEEDED,
                CONNECTION_REFUSED_SERVER_UNAVAILABLE,
                "connection rate of the source address exceeded"),
        CONNECTION_RATE(
                LimitRefusals.CONNECTION_RATE,
                CONNECTION_REFUSED_CONNECTION_RATE_EXCEEDED,
                CONNECTION_REFUSED_SERVER_UNAVAILABLE,
                "connection rate of the node exceeded");

        public final String reason;
        public final MqttConnectReturnCode v5Code;
        public final MqttConnectReturnCode v3Code;
        public final String cause;

        Refusal(String reason, MqttConnectReturnCode v5Code, MqttConnectReturnCode v3Code, String cause) {
            this.reason = reason;
            this.v5Code = v5Code;
            this.v3Code = v3Code;
            this.cause = cause;
        }
    }

    private final LimitsProperties limits;
    private final LongSupplier nanoTime;
    private final AtomicInteger open = new AtomicInteger();
    private final RateLimiter nodeRate;
    private final PerIpRateLimiter ipRate;
    private volatile IpRangeSet blockedIps = IpRangeSet.EMPTY;

    public ConnectAdmission(LimitsProperties limits, LongSupplier nanoTime) {
        this.limits = limits;
        this.nanoTime = nanoTime;
        long now = nanoTime.getAsLong();
        this.nodeRate = limits.connectionRate() > 0
                ? new RateLimiter(limits.connectionRate(), limits.connectionBurst(), now)
                : null;
        this.ipRate = limits.connectionRatePerIp() > 0
                ? new PerIpRateLimiter(
                        limits.connectionRatePerIp(),
                        limits.connectionBurstPerIp(),
                        limits.trackedIps(),
                        10_000_000_000L,
                        now)
                : null;
    }

    /**
     * A connection opened from {@code address} (null when unknown, as on test channels): counts it as open and
     * returns why it must be refused, or null. Every call must be matched by one {@link #closed()}.
     */
    public Refusal opened(InetAddress address) {
        int count = open.incrementAndGet();
        if (address != null && blockedIps.contains(address)) {
            return Refusal.BLOCKED_IP;
        }
        if (limits.maxConnections() > 0 && count > limits.maxConnections()) {
            return Refusal.CONNECTIONS;
        }
        long now = nanoTime.getAsLong();
        if (ipRate != null && address != null && !ipRate.tryAcquire(address, now)) {
            return Refusal.CONNECTION_RATE_IP;
        }
        if (nodeRate != null && !nodeRate.tryAcquire(now)) {
            return Refusal.CONNECTION_RATE;
        }
        return null;
    }

    public void closed() {
        open.decrementAndGet();
    }

    /** Connections open now, refused ones until they are closed included. */
    public int open() {
        return open.get();
    }

    /** Replaces the IP entries of the block list (from session-service). */
    public void blockedIps(IpRangeSet ranges) {
        this.blockedIps = ranges;
    }

    public IpRangeSet blockedIps() {
        return blockedIps;
    }

    public boolean blocked(InetAddress address) {
        return address != null && blockedIps.contains(address);
    }

    public LimitsProperties limits() {
        return limits;
    }
}
