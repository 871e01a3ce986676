package io.tributary.session.internalauth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.method.HandlerMethod;

/**
 * Closed by default: an internal endpoint that names no role ({@link InternalCallers}) admits nobody, and a call
 * that did not go through the token filter (no role) is refused too; the method's roles win over its controller's.
 */
class InternalCallerInterceptorTest {

    static class Unmarked {
        public void call() {}
    }

    @InternalCallers(InternalRole.TRANSPORT)
    static class Marked {
        public void transportOnly() {}

        @InternalCallers({InternalRole.TRANSPORT, InternalRole.ROUTING})
        public void both() {}
    }

    private static HandlerMethod handler(Object bean, String method) throws Exception {
        return new HandlerMethod(bean, bean.getClass().getMethod(method));
    }

    private static MockHttpServletResponse call(InternalRole role, HandlerMethod handler, boolean expected)
            throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/internal/v1/x");
        if (role != null) {
            request.setAttribute(InternalRole.ATTRIBUTE, role);
        }
        MockHttpServletResponse response = new MockHttpServletResponse();
        assertThat(new InternalCallerInterceptor().preHandle(request, response, handler))
                .as("%s on %s", role, handler)
                .isEqualTo(expected);
        return response;
    }

    @Test
    void anEndpointThatNamesNoRoleAdmitsNobody() throws Exception {
        HandlerMethod unmarked = handler(new Unmarked(), "call");
        assertThat(InternalCallerInterceptor.allowed(unmarked)).isEmpty();
        for (InternalRole role : InternalRole.values()) {
            MockHttpServletResponse response = call(role, unmarked, false);
            assertThat(response.getStatus()).isEqualTo(403);
            assertThat(response.getContentAsString()).contains("may not call POST /internal/v1/x");
        }
    }

    @Test
    void theMethodsRolesWinOverItsControllersAndACallWithoutRoleIsRefused() throws Exception {
        Marked marked = new Marked();
        assertThat(InternalCallerInterceptor.allowed(handler(marked, "transportOnly")))
                .containsExactly(InternalRole.TRANSPORT);
        call(InternalRole.TRANSPORT, handler(marked, "transportOnly"), true);
        assertThat(call(InternalRole.ROUTING, handler(marked, "transportOnly"), false)
                        .getContentAsString())
                .contains("the routing role may not call POST /internal/v1/x (only transport)");
        call(InternalRole.ROUTING, handler(marked, "both"), true);
        assertThat(call(null, handler(marked, "both"), false).getStatus()).isEqualTo(403);
    }
}
