package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.it.support.AdminRequests;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The credentials admin API of session-service, as an operator (or curl) uses it. */
final class AuthApi {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();
    private final String sessionApiUrl;

    AuthApi(String sessionApiUrl) {
        this.sessionApiUrl = sessionApiUrl;
    }

    static ObjectNode credential(
            String username, String clientId, String password, List<String> publish, List<String> subscribe) {
        ObjectNode body = JSON.createObjectNode();
        body.put("username", username);
        body.put("clientId", clientId);
        body.put("password", password);
        body.putArray("publish")
                .addAll(publish.stream().map(JSON.getNodeFactory()::textNode).toList());
        body.putArray("subscribe")
                .addAll(subscribe.stream().map(JSON.getNodeFactory()::textNode).toList());
        return body;
    }

    /** Creates the credential; returns its id. */
    long create(ObjectNode body) throws Exception {
        JsonNode created = send("POST", "/credentials", body.toString(), 201);
        assertThat(created.has("password")).as("password never returned").isFalse();
        return created.path("id").asLong();
    }

    JsonNode update(long id, ObjectNode body) throws Exception {
        return send("PUT", "/credentials/" + id, body.toString(), 200);
    }

    void delete(long id) throws Exception {
        send("DELETE", "/credentials/" + id, null, 204);
    }

    /** Creates a tenant (POST /api/v1/tenants). */
    void createTenant(String id) throws Exception {
        createTenant(id, null);
    }

    /** Creates a tenant with a connection quota (null: none). */
    void createTenant(String id, Integer maxConnections) throws Exception {
        ObjectNode body = JSON.createObjectNode();
        body.put("id", id);
        if (maxConnections != null) {
            body.put("maxConnections", maxConnections);
        }
        exchange("POST", "/api/v1/tenants", body.toString(), 201);
    }

    /** Creates a tenant with the given quotas ({@code maxPublishRate}, {@code maxPublishBytesRate}, ...). */
    void createTenantWithQuotas(String id, Map<String, ? extends Number> quotas) throws Exception {
        ObjectNode body = JSON.createObjectNode();
        body.put("id", id);
        quotas.forEach((name, value) -> body.put(name, value.longValue()));
        exchange("POST", "/api/v1/tenants", body.toString(), 201);
    }

    /** A tenant as the admin API shows it, its usage included. */
    JsonNode tenant(String id) throws Exception {
        return exchange("GET", "/api/v1/tenants/" + id, null, 200);
    }

    /** The tenant's metered usage (GET /api/v1/tenants/{id}/usage, the default 24 hours). */
    JsonNode usage(String tenant) throws Exception {
        return exchange("GET", "/api/v1/tenants/" + tenant + "/usage", null, 200);
    }

    /** A credential of {@code tenant}'s namespace. */
    static ObjectNode credential(String username, String password, String tenant, List<String> acl) {
        ObjectNode body = credential(username, null, password, acl, acl);
        body.put("tenant", tenant);
        return body;
    }

    JsonNode failures() throws Exception {
        return send("GET", "/failures?size=1000", null, 200);
    }

    /** {@code GET /api/v1/sessions/{clientId}}: the session and its presence. */
    JsonNode session(String clientId) throws Exception {
        return exchange("GET", "/api/v1/sessions/" + clientId, null, 200);
    }

    JsonNode send(String method, String path, String body, int expectedStatus) throws Exception {
        return exchange(method, "/api/v1/auth" + path, body, expectedStatus);
    }

    private JsonNode exchange(String method, String path, String body, int expectedStatus) throws Exception {
        HttpRequest.Builder request = AdminRequests.to(sessionApiUrl, path)
                .header("Content-Type", "application/json")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as(method + " " + path + " -> " + response.body())
                .isEqualTo(expectedStatus);
        return response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
    }
}
