package io.tributary.session.internal;

import io.tributary.common.session.SessionApi;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Lets through internal API calls ({@code /internal/**}) that carry the deployment's secret in
 * {@link SessionApi#TOKEN_HEADER}, compared in constant time; anything else is answered 401 and logged with the
 * caller's address.
 */
public class InternalTokenFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(InternalTokenFilter.class);

    private final byte[] token;

    public InternalTokenFilter(String token) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String presented = request.getHeader(SessionApi.TOKEN_HEADER);
        if (presented != null && MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8))) {
            chain.doFilter(request, response);
            return;
        }
        log.warn(
                "Internal API call {} {} from {} refused: {}",
                request.getMethod(),
                request.getRequestURI(),
                request.getRemoteAddr(),
                presented == null ? "no " + SessionApi.TOKEN_HEADER + " header" : "wrong " + SessionApi.TOKEN_HEADER);
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        response.setContentType("application/json");
        response.getOutputStream()
                .write(("{\"error\":\"the internal API needs the deployment's token in " + SessionApi.TOKEN_HEADER
                                + "\"}")
                        .getBytes(StandardCharsets.UTF_8));
    }
}
