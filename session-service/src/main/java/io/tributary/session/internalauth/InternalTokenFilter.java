package io.tributary.session.internalauth;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Lets through internal API calls ({@code /internal/**}) that carry one role's token in {@link SessionApi#TOKEN_HEADER}
 * ({@link InternalCallerGate}: {@link InternalTokens}, constant time), with that role in the request attribute {@link InternalRole#ATTRIBUTE} for
 * {@link InternalCallerInterceptor}; anything else is answered 401 and logged with the caller's address.
 */
public class InternalTokenFilter extends OncePerRequestFilter {

    private final InternalCallerGate gate;

    public InternalTokenFilter(InternalCallerGate gate) {
        this.gate = gate;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Optional<InternalRole> role = gate.authenticate(request, response);
        if (role.isPresent()) {
            request.setAttribute(InternalRole.ATTRIBUTE, role.get());
            chain.doFilter(request, response);
        }
    }
}
