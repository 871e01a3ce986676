package io.tributary.transport.listener.websocket;

import jakarta.validation.constraints.AssertTrue;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The web pages allowed to open MQTT over WebSocket (plain and secure), by their origin ({@link OriginPolicy}).
 * Bound from {@code tributary.transport.websocket.allowed-origins}; application.yml maps
 * {@code TRIBUTARY_WEBSOCKET_ALLOWED_ORIGINS} (comma-separated) onto it.
 *
 * @param allowedOrigins origins such as {@code https://console.example.com} or {@code http://127.0.0.1:8080}
 *                       (scheme, host and port; no path), or exactly {@code *} for any page. Empty (the default):
 *                       only same-origin pages. Upgrades without an Origin header (MQTT clients that are not
 *                       browsers) are accepted whatever the list
 */
@Validated
@ConfigurationProperties("tributary.transport.websocket")
public record WebSocketOriginProperties(List<String> allowedOrigins) {

    public WebSocketOriginProperties {
        allowedOrigins = allowedOrigins == null
                ? List.of()
                : allowedOrigins.stream()
                        .map(String::trim)
                        .filter(s -> !s.isEmpty())
                        .toList();
    }

    /** The default: same-origin pages only. */
    public static WebSocketOriginProperties sameOrigin() {
        return new WebSocketOriginProperties(List.of());
    }

    @AssertTrue(
            message = "tributary.transport.websocket.allowed-origins (TRIBUTARY_WEBSOCKET_ALLOWED_ORIGINS) must be"
                    + " origins such as https://console.example.com or http://127.0.0.1:8080 (scheme://host[:port],"
                    + " no path), comma-separated, or exactly *")
    public boolean isAllowedOriginsValid() {
        try {
            OriginPolicy.of(allowedOrigins);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The list, parsed (validated at start-up, so this does not throw on a bound instance). */
    public OriginPolicy policy() {
        return OriginPolicy.of(allowedOrigins);
    }
}
