package io.tributary.transport.listener.websocket;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which web pages may open MQTT over WebSocket, judged by the upgrade's {@code Origin} header (cross-site WebSocket
 * hijacking: browsers let any page open a WebSocket to any address, the user's network included, and send the page's
 * origin with it). No header: accepted, as browsers always send one and other MQTT clients send none. Otherwise the
 * origin must be on the list (compared in normal form, {@link WebOrigin}); the list {@code *} accepts every origin;
 * an empty list accepts only a same-origin page (Origin host and port equal the {@code Host} header's). A malformed
 * origin, {@code null} (a sandboxed page or a file) among them, is refused unless the list is {@code *}.
 *
 * <p>Same-origin does not stop DNS rebinding, where the attacker's own name points at the broker and the browser
 * sends a matching Host; a list does, as it never consults the Host header.
 */
public final class OriginPolicy {

    public static final String ANY = "*";

    private final boolean any;
    private final Set<WebOrigin> allowed;

    private OriginPolicy(boolean any, Set<WebOrigin> allowed) {
        this.any = any;
        this.allowed = allowed;
    }

    /**
     * @param entries origins such as {@code https://console.example.com} or {@code http://[::1]:8080}; exactly
     *                {@code *} for any; empty for same-origin only
     * @throws IllegalArgumentException naming the first entry that is not an origin, or a {@code *} among others
     */
    public static OriginPolicy of(List<String> entries) {
        if (entries.equals(List.of(ANY))) {
            return new OriginPolicy(true, Set.of());
        }
        Set<WebOrigin> allowed = new HashSet<>();
        for (String entry : entries) {
            if (entry.equals(ANY)) {
                throw new IllegalArgumentException("'*' must be the only entry");
            }
            allowed.add(WebOrigin.parse(entry));
        }
        return new OriginPolicy(false, Set.copyOf(allowed));
    }

    /** The default: same-origin pages and clients without an Origin header. */
    public static OriginPolicy sameOrigin() {
        return new OriginPolicy(false, Set.of());
    }

    /**
     * @param origin the upgrade's {@code Origin} header, null when it has none
     * @param host   its {@code Host} header, null when it has none
     */
    public boolean allows(String origin, String host) {
        if (origin == null || any) {
            return true;
        }
        WebOrigin parsed;
        try {
            parsed = WebOrigin.parse(origin);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return allowed.isEmpty() ? parsed.hasHostAndPortOf(host) : allowed.contains(parsed);
    }
}
