package io.tributary.session.internalauth;

import io.tributary.common.session.SessionApi;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Lets through internal API calls ({@code /internal/**}) that carry one role's token in {@link SessionApi#TOKEN_HEADER}
 * ({@link InternalTokens}, constant time), with that role in the request attribute {@link InternalRole#ATTRIBUTE} for
 * {@link InternalCallerInterceptor}; anything else is answered 401 and logged with the caller's address.
 */
public class InternalTokenFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(InternalTokenFilter.class);

    private final InternalTokens tokens;

    public InternalTokenFilter(InternalTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String presented = request.getHeader(SessionApi.TOKEN_HEADER);
        Optional<InternalRole> role = tokens.roleOf(presented);
        if (role.isPresent()) {
            request.setAttribute(InternalRole.ATTRIBUTE, role.get());
            chain.doFilter(request, response);
            return;
        }
        log.warn(
                "Internal API call {} {} from {} refused: {}",
                request.getMethod(),
                request.getRequestURI(),
                request.getRemoteAddr(),
                presented == null ? "no " + SessionApi.TOKEN_HEADER + " header" : "wrong " + SessionApi.TOKEN_HEADER);
        InternalCallerInterceptor.error(
                response,
                HttpServletResponse.SC_UNAUTHORIZED,
                "the internal API needs a caller's token (the transport nodes' or the routing nodes') in "
                        + SessionApi.TOKEN_HEADER);
    }
}
