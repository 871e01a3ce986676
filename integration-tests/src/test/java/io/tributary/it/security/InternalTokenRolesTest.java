package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.session.SessionApi;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * issue 34, "one token for every caller", on the running cluster: the routing nodes' internal token, which the router
 * of the cluster holds, may fetch the tenants' quotas but not assert a CONNECT (with any client address and
 * certificate CN) as a transport node; the transport nodes' token may. TenantQueueQuotaTest shows the router working
 * with its own token.
 */
@ExtendWith(LogsOnFailure.class)
class InternalTokenRolesTest {

    private static TributaryCluster cluster;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private HttpResponse<String> call(String token, String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(cluster.sessionInternalUrl() + path))
                .header(SessionApi.TOKEN_HEADER, token);
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theRoutersTokenFetchesQuotasButCannotConnectAClient() throws Exception {
        String connect = "{\"clientId\":\"it-roles\",\"nodeId\":\"" + cluster.nodeId(0) + "\",\"cleanStart\":true,"
                + "\"sessionExpirySeconds\":0,\"protocolVersion\":5,\"keepAliveSeconds\":30,"
                + "\"remoteAddress\":\"/203.0.113.9:4567\",\"certificateCommonName\":\"victim-device\"}";
        HttpResponse<String> refused = call(TributaryCluster.ROUTING_TOKEN, "POST", SessionApi.CONNECT, connect);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
        assertThat(refused.body()).contains("the routing role may not call POST " + SessionApi.CONNECT);

        HttpResponse<String> quotas =
                call(TributaryCluster.ROUTING_TOKEN, "GET", SessionApi.TENANT_PUBLISH_QUOTAS, null);
        assertThat(quotas.statusCode()).as(quotas.body()).isEqualTo(200);
        assertThat(call(TributaryCluster.INTERNAL_TOKEN, "GET", SessionApi.BLOCKED_IPS, null)
                        .statusCode())
                .isEqualTo(200);
        assertThat(call(TributaryCluster.ROUTING_TOKEN, "GET", SessionApi.BLOCKED_IPS, null)
                        .statusCode())
                .isEqualTo(403);
    }
}
