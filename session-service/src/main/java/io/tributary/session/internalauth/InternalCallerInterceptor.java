package io.tributary.session.internalauth;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * After {@link InternalTokenFilter} has told the caller's role: lets the call through only when the endpoint's
 * {@link InternalCallers} names that role. Any other call of an endpoint is answered 403 and logged once, with the
 * role and the path: another role's endpoint, or one that names no role (closed by default). A path no endpoint
 * serves is left to Spring, which answers 404 as before.
 */
public class InternalCallerInterceptor implements HandlerInterceptor {

    private static final Logger log = LoggerFactory.getLogger(InternalCallerInterceptor.class);

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws IOException {
        if (!(handler instanceof HandlerMethod)) {
            // No endpoint: the resource handler answers 404.
            return true;
        }
        Object attribute = request.getAttribute(InternalRole.ATTRIBUTE);
        if (!(attribute instanceof InternalRole role)) {
            // Not through the token filter (it guards every /internal/ path of the internal connector): nobody.
            log.warn("Internal API call {} {} refused: no caller role", request.getMethod(), request.getRequestURI());
            InternalCallerGate.error(response, HttpServletResponse.SC_FORBIDDEN, "no caller role");
            return false;
        }
        return InternalCallerGate.permits(request, response, role, allowed(handler));
    }

    /** The roles an endpoint admits: its method's {@link InternalCallers}, else its controller's, else none. */
    static List<InternalRole> allowed(Object handler) {
        if (!(handler instanceof HandlerMethod method)) {
            return List.of();
        }
        InternalCallers callers = AnnotatedElementUtils.findMergedAnnotation(method.getMethod(), InternalCallers.class);
        if (callers == null) {
            callers = AnnotatedElementUtils.findMergedAnnotation(method.getBeanType(), InternalCallers.class);
        }
        return callers == null ? List.of() : Arrays.asList(callers.value());
    }
}
