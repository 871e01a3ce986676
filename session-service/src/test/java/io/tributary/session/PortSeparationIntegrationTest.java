package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.SessionApi;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * issue 34, "One port for everything": the admin REST API and console, the internal API and the actuator each answer
 * on their own port only, so a network policy can expose the first, let only the transport and routing nodes reach
 * the second and only the probes and Prometheus the third. Everywhere else they are 404, under any spelling of the
 * path.
 */
@Order(3) // before OutageIntegrationTest stops the shared engines
class PortSeparationIntegrationTest extends ServiceTestBase {

    private static final List<String> ACTUATOR =
            List.of("/actuator/health", "/actuator/health/readiness", "/actuator/prometheus", "/actuator/loggers");

    private int status(int port, String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(port, path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private String connectBody(String clientId) throws Exception {
        return json.writeValueAsString(
                new ConnectApi.ConnectRequest(clientId, "node-p", true, 0, 5, 30, "127.0.0.1:1", "user"));
    }

    private String loginBody() throws Exception {
        return json.writeValueAsString(java.util.Map.of("username", ADMIN_USER, "password", ADMIN_PASSWORD));
    }

    @Test
    void theActuatorAnswersOnTheManagementPortOnly() throws Exception {
        assertThat(List.of(port, managementPort, internalPort())).doesNotHaveDuplicates();
        for (String path : ACTUATOR) {
            assertThat(status(managementPort, "GET", path, null)).as(path).isEqualTo(200);
            assertThat(status(port, "GET", path, null)).as("REST port " + path).isEqualTo(404);
            assertThat(status(internalPort(), "GET", path, null))
                    .as("internal port " + path)
                    .isEqualTo(404);
        }
    }

    @Test
    void theInternalApiAnswersOnTheInternalPortOnly() throws Exception {
        String token = SessionApi.TOKEN_HEADER;
        assertThat(status(internalPort(), "POST", SessionApi.CONNECT, connectBody("ports-a"), token, INTERNAL_TOKEN))
                .isEqualTo(200);
        // Without the token the internal port still refuses: the port is a second fence, not the only one.
        assertThat(status(internalPort(), "POST", SessionApi.CONNECT, connectBody("ports-a")))
                .isEqualTo(401);
        for (String path : List.of(
                SessionApi.CONNECT,
                "/%69nternal/v1/sessions/connect",
                "/api/../internal/v1/sessions/connect",
                "/internal;x=y/v1/sessions/connect",
                "//internal/v1/sessions/connect")) {
            assertThat(status(port, "POST", path, connectBody("ports-b"), token, INTERNAL_TOKEN))
                    .as("REST port " + path)
                    .isEqualTo(404);
        }
        // The batch endpoints are served before Spring MVC (InternalBatchEndpoints), and no closer to the REST port.
        String batch = "{\"requests\":[" + connectBody("ports-b") + "]}";
        for (String path : List.of(
                SessionApi.CONNECT_BATCH,
                "/%69nternal/v1/sessions/connect-batch",
                "/api/../internal/v1/sessions/connect-batch",
                "/internal;x=y/v1/sessions/connect-batch",
                "//internal/v1/sessions/connect-batch")) {
            assertThat(status(port, "POST", path, batch, token, INTERNAL_TOKEN))
                    .as("REST port " + path)
                    .isEqualTo(404);
            assertThat(status(managementPort, "POST", path, batch, token, INTERNAL_TOKEN))
                    .as("management port " + path)
                    .isEqualTo(404);
        }
        assertThat(status(managementPort, "POST", SessionApi.CONNECT, connectBody("ports-b"), token, INTERNAL_TOKEN))
                .isEqualTo(404);
        assertThat(jdbc.sql("SELECT count(*) FROM sessions WHERE client_id = 'ports-b'")
                        .query(Long.class)
                        .single())
                .as("no CONNECT got through another port")
                .isZero();
    }

    @Test
    void theAdminApiAndTheConsoleAreNotOnTheInternalOrTheManagementPort() throws Exception {
        assertThat(status(port, "POST", "/api/v1/admin/tokens", loginBody())).isEqualTo(201);
        for (int other : List.of(internalPort(), managementPort)) {
            assertThat(status(other, "POST", "/api/v1/admin/tokens", loginBody()))
                    .as("login on " + other)
                    .isEqualTo(404);
            assertThat(status(other, "GET", "/api/v1/sessions", null, "Authorization", "Bearer " + adminToken()))
                    .as("sessions on " + other)
                    .isEqualTo(404);
            for (String path : List.of("/", "/console/", "/api/v1/openapi")) {
                assertThat(status(other, "GET", path, null))
                        .as(path + " on " + other)
                        .isEqualTo(404);
            }
        }
    }
}
