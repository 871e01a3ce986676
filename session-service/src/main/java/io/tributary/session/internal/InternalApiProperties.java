package io.tributary.session.internal;

import io.tributary.session.internalauth.InternalRole;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.util.EnumMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The internal API of the transport and routing nodes ({@code /internal/**}).
 *
 * @param transportToken the transport nodes' token ({@code TRIBUTARY_INTERNAL_TRANSPORT_TOKEN}), which each of them
 *                       presents as its {@code TRIBUTARY_INTERNAL_TOKEN}; it calls the transport nodes' endpoints
 *                       only. Required, at least 16 characters.
 * @param routingToken   the routing nodes' token ({@code TRIBUTARY_INTERNAL_ROUTING_TOKEN}), their
 *                       {@code TRIBUTARY_INTERNAL_TOKEN}; it calls the routing nodes' endpoints only (the tenants'
 *                       quotas). Required, at least 16 characters, not the transport nodes' token. No deployment
 *                       serves session takeovers and credential checks to anybody who reaches the port, nor lets one
 *                       role's token do another's calls.
 * @param port           the port of the internal API's own connector ({@code INTERNAL_API_PORT}, 8086; 0 picks a free
 *                       one), the only port answering {@code /internal/**}: a network policy can then let only the
 *                       transport and routing pods reach it while the admin API on {@code HTTP_PORT} is exposed. It
 *                       must differ from {@code HTTP_PORT} and {@code MANAGEMENT_PORT}.
 */
@Validated
@ConfigurationProperties("tributary.internal")
public record InternalApiProperties(
        @NotBlank(message = TRANSPORT_REQUIRED) @Size(min = 16, message = TRANSPORT_REQUIRED)
        String transportToken,

        @NotBlank(message = ROUTING_REQUIRED) @Size(min = 16, message = ROUTING_REQUIRED)
        String routingToken,

        @Min(0) @Max(65535) int port) {

    private static final String UPGRADE =
            " (session-service no longer reads the one shared TRIBUTARY_INTERNAL_TOKEN: CHANGELOG.md)";
    static final String TRANSPORT_REQUIRED =
            "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN (the transport nodes' internal token, at least 16 characters) is"
                    + " required" + UPGRADE;
    static final String ROUTING_REQUIRED =
            "TRIBUTARY_INTERNAL_ROUTING_TOKEN (the routing nodes' internal token, at least 16 characters) is"
                    + " required" + UPGRADE;

    /** One token for both roles would let a routing node's token do what the transport nodes do. */
    @AssertTrue(
            message = "TRIBUTARY_INTERNAL_TRANSPORT_TOKEN and TRIBUTARY_INTERNAL_ROUTING_TOKEN must differ: each role"
                    + " needs its own token")
    public boolean isOneTokenPerRole() {
        return transportToken == null || !transportToken.equals(routingToken);
    }

    /** Every role's token. */
    public Map<InternalRole, String> tokens() {
        Map<InternalRole, String> tokens = new EnumMap<>(InternalRole.class);
        tokens.put(InternalRole.TRANSPORT, transportToken);
        tokens.put(InternalRole.ROUTING, routingToken);
        return tokens;
    }

    /** Without the tokens: settings end up in logs and error messages. */
    @Override
    public String toString() {
        return "InternalApiProperties[transportToken=(redacted), routingToken=(redacted), port=" + port + "]";
    }
}
