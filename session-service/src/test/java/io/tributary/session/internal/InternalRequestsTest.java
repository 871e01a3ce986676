package io.tributary.session.internal;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.session.web.ApiException;
import java.util.List;
import org.junit.jupiter.api.Test;

class InternalRequestsTest {

    @Test
    void wellFormedRequestsPass() {
        assertThatCode(() -> InternalRequests.check(
                        new ConnectApi.ConnectRequest("c", "node-1", true, 0xFFFFFFFFL, 4, 65535, null, null)))
                .doesNotThrowAnyException();
        assertThatCode(() -> InternalRequests.check(new SubscribeApi.SubscribeRequest(
                        "c", 1, "node-1", List.of(new SubscribeApi.Subscription("a/#/b", 2, true, true, 2)))))
                .as("an invalid filter is a reason code, not a bad request")
                .doesNotThrowAnyException();
    }

    @Test
    void connectShapeErrorsAreBadRequests() {
        assertBad(new ConnectApi.ConnectRequest("", "node-1", true, 0, 5, 0, null, null), "clientId");
        assertBad(new ConnectApi.ConnectRequest("a\u0000b", "node-1", true, 0, 5, 0, null, null), "U+0000");
        assertBad(new ConnectApi.ConnectRequest("c", "node 1", true, 0, 5, 0, null, null), "nodeId");
        assertBad(new ConnectApi.ConnectRequest("c", "node-1", true, 0x100000000L, 5, 0, null, null), "Expiry");
        assertBad(new ConnectApi.ConnectRequest("c", "node-1", true, -1, 5, 0, null, null), "Expiry");
        assertBad(new ConnectApi.ConnectRequest("c", "node-1", true, 0, 6, 0, null, null), "protocolVersion");
        assertBad(new ConnectApi.ConnectRequest("c", "node-1", true, 0, 5, 65536, null, null), "keepAlive");
    }

    @Test
    void subscriptionShapeErrorsAreBadRequests() {
        assertThatThrownBy(() -> InternalRequests.check(new SubscribeApi.SubscribeRequest(
                        "c", 0, "n", List.of(new SubscribeApi.Subscription("a", 0, false, false, 0)))))
                .hasMessageContaining("epoch");
        assertThatThrownBy(() -> InternalRequests.check(new SubscribeApi.SubscribeRequest("c", 1, "n", List.of())))
                .hasMessageContaining("subscriptions");
        assertThatThrownBy(() -> InternalRequests.check(new SubscribeApi.SubscribeRequest(
                        "c", 1, "n", List.of(new SubscribeApi.Subscription("a", 3, false, false, 0)))))
                .hasMessageContaining("qos");
        assertThatThrownBy(() -> InternalRequests.check(new SubscribeApi.SubscribeRequest(
                        "c", 1, "n", List.of(new SubscribeApi.Subscription("a", 1, false, false, 3)))))
                .hasMessageContaining("retainHandling");
        assertThatThrownBy(() -> InternalRequests.check(new SubscribeApi.UnsubscribeRequest("c", 1, List.of())))
                .isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> InternalRequests.check(new DisconnectApi.DisconnectRequest("c", 1, "n", -5)))
                .hasMessageContaining("Expiry");
    }

    private static void assertBad(ConnectApi.ConnectRequest request, String mentioning) {
        assertThatThrownBy(() -> InternalRequests.check(request))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining(mentioning)
                .satisfies(e -> org.assertj.core.api.Assertions.assertThat(
                                ((ApiException) e).status().value())
                        .isEqualTo(400));
    }
}
