package io.tributary.session.internalauth;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.LivenessApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.session.ServiceTestBase;
import io.tributary.session.internal.InternalBatchEndpoints;
import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * issue 34, "one token for every caller": session-service knows one internal token per calling role, and each
 * internal endpoint the roles that may call it. A routing node's token, which the routing nodes need for the tenants'
 * quotas only, is refused with 403 on every endpoint of the transport nodes (it could otherwise assert a CONNECT
 * with any client address and certificate CN), with one WARN line naming the role and the path; no endpoint is the
 * routing nodes' alone, so there is no "other way round". An unknown token stays 401.
 */
@Order(3) // before OutageIntegrationTest stops the shared engines
@ExtendWith(OutputCaptureExtension.class)
class InternalRolesIntegrationTest extends ServiceTestBase {

    /** Which roles each internal endpoint admits, as derived from the callers' code (SessionServiceClient, TenantQueuePoller). */
    private static final Map<String, List<InternalRole>> EXPECTED = Map.of(
            "POST " + SessionApi.CONNECT, List.of(InternalRole.TRANSPORT),
            "POST " + SessionApi.CONNECT_BATCH, List.of(InternalRole.TRANSPORT),
            "POST " + SessionApi.SUBSCRIBE, List.of(InternalRole.TRANSPORT),
            "POST " + SessionApi.SUBSCRIBE_BATCH, List.of(InternalRole.TRANSPORT),
            "POST " + SessionApi.UNSUBSCRIBE_BATCH, List.of(InternalRole.TRANSPORT),
            "POST " + SessionApi.DISCONNECT, List.of(InternalRole.TRANSPORT),
            "POST " + SessionApi.DISCONNECT_BATCH, List.of(InternalRole.TRANSPORT),
            "POST " + SessionApi.HEARTBEAT, List.of(InternalRole.TRANSPORT),
            "GET " + SessionApi.BLOCKED_IPS, List.of(InternalRole.TRANSPORT),
            "GET " + SessionApi.TENANT_PUBLISH_QUOTAS, List.of(InternalRole.TRANSPORT, InternalRole.ROUTING));

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    private RequestMappingHandlerMapping mappings;

    @Autowired
    private InternalBatchEndpoints batchEndpoints;

    private Response call(String token, String method, String path, Object body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header(SessionApi.TOKEN_HEADER, token);
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
        }
        return exchange(request.build());
    }

    /** A CONNECT as a routing token's holder would assert it: any client address, any certificate CN. */
    private static ConnectApi.ConnectRequest connect(String clientId) {
        return new ConnectApi.ConnectRequest(
                clientId,
                "node-roles",
                true,
                0,
                5,
                30,
                "/203.0.113.9:4567",
                null,
                null,
                null,
                null,
                "victim-device-cn");
    }

    /** A well-formed request for each transport endpoint: without the role check each would be served. */
    private static Map<String, Object> transportCalls() {
        Map<String, Object> calls = new LinkedHashMap<>();
        calls.put("POST " + SessionApi.CONNECT, connect("roles-single"));
        calls.put("POST " + SessionApi.CONNECT_BATCH, new ConnectApi.ConnectBatch(List.of(connect("roles-batch"))));
        calls.put(
                "POST " + SessionApi.SUBSCRIBE,
                new SubscribeApi.SubscribeRequest("roles-single", 1, "node-roles", List.of(sub("r/#", 1))));
        calls.put(
                "POST " + SessionApi.SUBSCRIBE_BATCH,
                new SubscribeApi.SubscribeBatch(List.of(
                        new SubscribeApi.SubscribeRequest("roles-single", 1, "node-roles", List.of(sub("r/#", 1))))));
        calls.put(
                "POST " + SessionApi.UNSUBSCRIBE_BATCH,
                new SubscribeApi.UnsubscribeBatch(
                        List.of(new SubscribeApi.UnsubscribeRequest("roles-single", 1, List.of("r/#")))));
        calls.put(
                "POST " + SessionApi.DISCONNECT,
                new DisconnectApi.DisconnectRequest("roles-single", 1, "node-roles", 0));
        calls.put(
                "POST " + SessionApi.DISCONNECT_BATCH,
                new DisconnectApi.DisconnectBatch(
                        List.of(new DisconnectApi.DisconnectRequest("roles-single", 1, "node-roles", 0))));
        calls.put("POST " + SessionApi.HEARTBEAT, new LivenessApi.HeartbeatRequest("node-roles", "inc-1"));
        calls.put("GET " + SessionApi.BLOCKED_IPS, null);
        return calls;
    }

    @Test
    void theRoutingTokenIsRefusedOnEveryTransportEndpointWithOneWarningEach(CapturedOutput output) throws Exception {
        for (Map.Entry<String, Object> call : transportCalls().entrySet()) {
            String method = call.getKey().substring(0, call.getKey().indexOf(' '));
            String path = call.getKey().substring(method.length() + 1);
            int before = warnings(output, method, path);
            Response refused = call(ROUTING_TOKEN, method, path, call.getValue());
            assertThat(refused.status())
                    .as("%s with the routing token: %s", call.getKey(), refused.body())
                    .isEqualTo(403);
            assertThat(refused.body().get("error").asString())
                    .isEqualTo("the routing role may not call " + call.getKey() + " (only transport)");
            assertThat(warnings(output, method, path))
                    .as("WARN lines for " + call.getKey())
                    .isEqualTo(before + 1);
        }
        assertThat(jdbc.sql("SELECT count(*) FROM sessions WHERE client_id IN ('roles-single', 'roles-batch')")
                        .query(Long.class)
                        .single())
                .as("no CONNECT asserted with the routing token got through")
                .isZero();
        // The same CONNECT with the transport nodes' token is theirs to make.
        Response own = call(
                INTERNAL_TOKEN,
                "POST",
                SessionApi.CONNECT,
                new ConnectApi.ConnectRequest("roles-single", "node-roles", true, 0, 5, 30, "127.0.0.1:1", "user"));
        assertThat(own.status()).as("transport token: %s", own.body()).isEqualTo(200);
    }

    private static int warnings(CapturedOutput output, String method, String path) {
        String line =
                "Internal API call " + method + " " + path + " by the routing role refused: only transport may call it";
        return (int) output.getAll()
                .lines()
                .filter(l -> l.contains("WARN") && l.contains(line))
                .count();
    }

    @Test
    void bothRolesFetchTheTenantsQuotasAndAnUnknownTokenIsStill401() throws Exception {
        for (String token : List.of(INTERNAL_TOKEN, ROUTING_TOKEN)) {
            Response quotas = call(token, "GET", SessionApi.TENANT_PUBLISH_QUOTAS, null);
            assertThat(quotas.status()).as("quotas: %s", quotas.body()).isEqualTo(200);
        }
        for (String token : List.of(ROUTING_TOKEN.substring(1) + "x", INTERNAL_TOKEN + ROUTING_TOKEN, "")) {
            assertThat(call(token, "GET", SessionApi.TENANT_PUBLISH_QUOTAS, null)
                            .status())
                    .as(token)
                    .isEqualTo(401);
        }
    }

    /** A path no endpoint serves stays 404 for either role (InternalCallerInterceptorTest: one naming no role, 403). */
    @Test
    void anInternalPathNoEndpointServesIs404() throws Exception {
        for (String token : List.of(INTERNAL_TOKEN, ROUTING_TOKEN)) {
            assertThat(call(token, "GET", "/internal/v1/nothing-here", null).status())
                    .isEqualTo(404);
        }
    }

    /** Every internal endpoint session-service serves says who may call it, and says what the callers' code needs. */
    @Test
    void everyInternalEndpointNamesItsRoles() {
        Map<String, List<InternalRole>> served = new TreeMap<>();
        mappings.getHandlerMethods().forEach((info, handler) -> {
            for (String pattern : info.getPatternValues()) {
                if (pattern.startsWith("/internal/")) {
                    for (var method : info.getMethodsCondition().getMethods()) {
                        served.put(method + " " + pattern, InternalCallerInterceptor.allowed(handler));
                    }
                }
            }
        });
        // The batch endpoints, served before Spring MVC (InternalBatchEndpoints), say theirs themselves.
        batchEndpoints
                .callers()
                .forEach((call, roles) -> assertThat(served.put(call, roles))
                        .as("%s is served twice", call)
                        .isNull());
        assertThat(served).containsExactlyInAnyOrderEntriesOf(EXPECTED);
        assertThat(new TreeSet<>(served.keySet())).hasSize(EXPECTED.size());
    }
}
