package io.tributary.session.web;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * The admin a request of the admin API is authenticated as, put on the request by the admin token filter (adminauth).
 *
 * @param tenant null for an admin of the whole cluster; else the one tenant this admin may manage
 */
public record AdminPrincipal(String username, @Nullable String tenant) {

    /** Request attribute holding the principal. */
    public static final String ATTRIBUTE = "tributary.admin.principal";

    public boolean scoped() {
        return tenant != null;
    }

    /**
     * The principal of a request that passed the admin token filter. A request without one never reaches a
     * controller of {@code /api/v1/**}; failing here rather than treating it as unscoped keeps that true if the
     * filter's mapping ever changes.
     */
    public static AdminPrincipal of(HttpServletRequest request) {
        if (request.getAttribute(ATTRIBUTE) instanceof AdminPrincipal principal) {
            return principal;
        }
        throw new IllegalStateException("no authenticated admin on " + request.getRequestURI());
    }
}
