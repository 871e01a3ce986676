package io.tributary.session.internalauth;

import io.tributary.common.session.SessionApi;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two checks of every internal API call, and their refusals: which role calls, from its token ({@link
 * InternalTokens}; otherwise 401), and whether that role may call the endpoint (otherwise 403). Each refusal is one
 * WARN line naming the call and the cause. Used by {@link InternalTokenFilter} and {@link InternalCallerInterceptor}
 * for the endpoints Spring MVC serves, and by the internal batch endpoints, which are served before the filters.
 */
public final class InternalCallerGate {

    private static final Logger log = LoggerFactory.getLogger(InternalCallerGate.class);

    private final InternalTokens tokens;

    public InternalCallerGate(InternalTokens tokens) {
        this.tokens = tokens;
    }

    /** The caller's role; empty after answering 401 (no token, or one no role has). */
    public Optional<InternalRole> authenticate(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        String presented = request.getHeader(SessionApi.TOKEN_HEADER);
        Optional<InternalRole> role = tokens.roleOf(presented);
        if (role.isEmpty()) {
            log.warn(
                    "Internal API call {} {} from {} refused: {}",
                    request.getMethod(),
                    request.getRequestURI(),
                    request.getRemoteAddr(),
                    presented == null
                            ? "no " + SessionApi.TOKEN_HEADER + " header"
                            : "wrong " + SessionApi.TOKEN_HEADER);
            error(
                    response,
                    HttpServletResponse.SC_UNAUTHORIZED,
                    "the internal API needs a caller's token (the transport nodes' or the routing nodes') in "
                            + SessionApi.TOKEN_HEADER);
        }
        return role;
    }

    /** Whether {@code role} may call an endpoint that admits {@code allowed}; false after answering 403. */
    public static boolean permits(
            HttpServletRequest request, HttpServletResponse response, InternalRole role, List<InternalRole> allowed)
            throws IOException {
        if (allowed.contains(role)) {
            return true;
        }
        log.warn(
                "Internal API call {} {} by the {} role refused: {}",
                request.getMethod(),
                request.getRequestURI(),
                role.label(),
                allowed.isEmpty() ? "no role may call it" : "only " + labels(allowed) + " may call it");
        error(
                response,
                HttpServletResponse.SC_FORBIDDEN,
                "the " + role.label() + " role may not call " + request.getMethod() + " " + request.getRequestURI()
                        + (allowed.isEmpty() ? "" : " (only " + labels(allowed) + ")"));
        return false;
    }

    private static String labels(List<InternalRole> roles) {
        return String.join(", ", roles.stream().map(InternalRole::label).toList());
    }

    /** Answers {@code {"error": message}} with {@code status}. */
    public static void error(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.getOutputStream()
                .write(("{\"error\":\"" + message.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}")
                        .getBytes(StandardCharsets.UTF_8));
    }
}
