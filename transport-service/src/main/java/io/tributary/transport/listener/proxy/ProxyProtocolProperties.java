package io.tributary.transport.listener.proxy;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The PROXY protocol (v1 and v2) on the MQTT listeners, for nodes behind a load balancer that sends it (HAProxy's
 * {@code send-proxy-v2}, the AWS NLB's proxy protocol v2). Bound from {@code tributary.transport.proxy-protocol.*};
 * application.yml maps {@code TRIBUTARY_PROXY_PROTOCOL}, {@code TRIBUTARY_PROXY_PROTOCOL_TRUSTED} and
 * {@code TRIBUTARY_PROXY_PROTOCOL_TIMEOUT} onto it.
 *
 * @param enabled every client listener (MQTT, TLS, WebSocket, secure WebSocket) expects a PROXY header first, in clear
 *                before any TLS, and takes the client's address from it; a connection without a valid one is closed
 * @param trusted the networks (CIDRs such as {@code 10.0.0.0/8}, or single addresses) a PROXY header is taken from;
 *                a connection from any other peer is closed at once. Empty: any peer, which is right only where
 *                nobody but the load balancer reaches the listeners
 * @param timeout a connection whose PROXY header has not arrived by then is closed
 */
@Validated
@ConfigurationProperties("tributary.transport.proxy-protocol")
public record ProxyProtocolProperties(
        boolean enabled, List<String> trusted, @NotNull Duration timeout) {

    public ProxyProtocolProperties {
        trusted = trusted == null
                ? List.of()
                : trusted.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** Off: the listeners read MQTT (or TLS, or HTTP) from the first byte. */
    public static ProxyProtocolProperties off() {
        return new ProxyProtocolProperties(false, List.of(), Duration.ofSeconds(5));
    }

    @AssertTrue(
            message = "tributary.transport.proxy-protocol.trusted (TRIBUTARY_PROXY_PROTOCOL_TRUSTED) must be IP"
                    + " addresses or CIDRs such as 10.0.0.0/8 or fd00::/8, comma-separated")
    public boolean isTrustedValid() {
        try {
            TrustedProxies.of(trusted);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @AssertTrue(
            message = "tributary.transport.proxy-protocol.timeout (TRIBUTARY_PROXY_PROTOCOL_TIMEOUT) must be"
                    + " between 1 ms and 1 minute")
    public boolean isTimeoutBounded() {
        return timeout == null || (timeout.toMillis() >= 1 && timeout.compareTo(Duration.ofMinutes(1)) <= 0);
    }

    /** The trusted networks, parsed (validated at start-up, so this does not throw on a bound instance). */
    public TrustedProxies trustedProxies() {
        return TrustedProxies.of(trusted);
    }
}
