package io.tributary.session.adminauth;

import io.tributary.session.web.AdminPrincipal;
import io.tributary.session.web.ApiError;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.transaction.TransactionException;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requires a valid bearer token on every request of the admin REST API ({@code /api/v1/**}; registered for that
 * path only by {@link AdminAuthConfiguration}), except {@code POST /api/v1/admin/tokens}, which issues one. Anything
 * else answers 401 with {@code {"error": "..."}} and {@code WWW-Authenticate: Bearer}. Actuator endpoints and the
 * internal API of the transport nodes ({@code /internal/**}) are not filtered. An admin scoped to a tenant is let
 * through only to what {@link TenantScopeRules} allows (403 otherwise).
 */
public class AdminTokenFilter extends OncePerRequestFilter {

    static final String TOKENS_PATH = "/api/v1/admin/tokens";
    /**
     * Largest login body: a user name and a password in JSON. Checked from Content-Length before anything reads the
     * body, so an unauthenticated caller cannot make the service buffer a large one; a body without a length
     * (chunked) is refused too.
     */
    static final long MAX_LOGIN_BODY = 4096;
    /** Request attribute holding the authenticated admin user name. */
    public static final String ADMIN_ATTRIBUTE = "tributary.admin";

    private static final String BEARER = "Bearer ";

    private final AdminTokenService tokens;
    private final JsonMapper json;

    public AdminTokenFilter(AdminTokenService tokens, JsonMapper json) {
        this.tokens = tokens;
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (isTokenRequest(request)) {
            long length = request.getContentLengthLong();
            if (length < 0) {
                answer(response, HttpStatus.LENGTH_REQUIRED, "a login needs a Content-Length");
            } else if (length > MAX_LOGIN_BODY) {
                answer(
                        response,
                        HttpStatus.CONTENT_TOO_LARGE,
                        "a login body has at most " + MAX_LOGIN_BODY + " bytes, not " + length);
            } else {
                chain.doFilter(request, response);
            }
            return;
        }
        String token = bearerToken(request);
        if (token == null) {
            unauthorized(
                    response,
                    "missing bearer token: get one with POST " + TOKENS_PATH
                            + " and send it as 'Authorization: Bearer <token>'");
            return;
        }
        Optional<AdminPrincipal> admin;
        try {
            admin = tokens.authenticate(token);
        } catch (TransactionException | DataAccessException e) {
            // Outside the MVC error advice: answered here as it would answer (the caller may retry).
            answer(response, HttpStatus.SERVICE_UNAVAILABLE, "PostgreSQL unavailable: cannot check the token");
            return;
        }
        if (admin.isEmpty()) {
            unauthorized(response, "invalid, expired or revoked bearer token");
            return;
        }
        AdminPrincipal principal = admin.get();
        if (principal.scoped() && !scopeAllows(principal, request)) {
            answer(
                    response,
                    HttpStatus.FORBIDDEN,
                    "admin '" + principal.username() + "' is scoped to tenant '" + principal.tenant() + "': "
                            + request.getMethod() + " " + request.getRequestURI()
                            + " is for admins of the whole cluster");
            return;
        }
        request.setAttribute(ADMIN_ATTRIBUTE, principal.username());
        request.setAttribute(AdminPrincipal.ATTRIBUTE, principal);
        chain.doFilter(request, response);
    }

    /**
     * A scoped admin gets only canonical URIs (the path the handler mapping sees equals the raw URI: no dot segments,
     * no encoded or matrix parts), so the rules match exactly what will be dispatched.
     */
    private static boolean scopeAllows(AdminPrincipal principal, HttpServletRequest request) {
        String path = applicationPath(request);
        return (request.getContextPath() + path).equals(request.getRequestURI())
                && TenantScopeRules.allows(principal, request.getMethod(), path);
    }

    private static String applicationPath(HttpServletRequest request) {
        return request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
    }

    /**
     * Only the exact path is let through: the raw URI too, so no path that the container normalizes differently
     * from the MVC handler mapping slips past.
     */
    private static boolean isTokenRequest(HttpServletRequest request) {
        return "POST".equals(request.getMethod())
                && TOKENS_PATH.equals(applicationPath(request))
                && (request.getContextPath() + TOKENS_PATH).equals(request.getRequestURI());
    }

    /** The token of an {@code Authorization: Bearer <token>} header, or null. */
    static String bearerToken(HttpServletRequest request) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null
                || header.length() <= BEARER.length()
                || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        String token = header.substring(BEARER.length()).trim();
        return token.isEmpty() ? null : token;
    }

    private void unauthorized(HttpServletResponse response, String message) throws IOException {
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"tributary\"");
        answer(response, HttpStatus.UNAUTHORIZED, message);
    }

    private void answer(HttpServletResponse response, HttpStatus status, String message) throws IOException {
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.getOutputStream().write(json.writeValueAsBytes(new ApiError(message)));
    }
}
