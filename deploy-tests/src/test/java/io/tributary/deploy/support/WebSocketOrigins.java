package io.tributary.deploy.support;

import java.util.Optional;

/**
 * The transport's {@code TRIBUTARY_WEBSOCKET_ALLOWED_ORIGINS} (issue 34): {@code *} lets every web page a user opens
 * use MQTT over WebSocket, on the user's network too (cross-site WebSocket hijacking). A shipped deployment lists
 * origins (compose: the admin console's) or keeps the default, same-origin pages only.
 */
public final class WebSocketOrigins {

    public static final String VARIABLE = "TRIBUTARY_WEBSOCKET_ALLOWED_ORIGINS";

    private WebSocketOrigins() {}

    /** What is wrong with a deployment's value, if anything (null: not set, the same-origin default). */
    public static Optional<String> finding(String value) {
        return value != null && value.trim().equals("*")
                ? Optional.of(VARIABLE + " is *: any web page a user opens may use MQTT over WebSocket; list the"
                        + " browser apps' origins instead")
                : Optional.empty();
    }
}
