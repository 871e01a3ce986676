package io.tributary.it.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests to the admin REST API of a session-service, with the bearer token of the first admin that
 * {@link TributaryCluster} configures ({@link TributaryCluster#ADMIN_USER}); one token per session-service, got once
 * from {@code POST /api/v1/admin/tokens} as an operator would.
 */
public final class AdminRequests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Map<String, String> TOKENS = new ConcurrentHashMap<>();

    private AdminRequests() {}

    /** A request to {@code sessionApiUrl + path} carrying the admin bearer token. */
    public static HttpRequest.Builder to(String sessionApiUrl, String path) {
        return HttpRequest.newBuilder(URI.create(sessionApiUrl + path))
                .header("Authorization", "Bearer " + token(sessionApiUrl));
    }

    /** The admin bearer token of that session-service. */
    public static String token(String sessionApiUrl) {
        return TOKENS.computeIfAbsent(sessionApiUrl, AdminRequests::login);
    }

    private static String login(String sessionApiUrl) {
        String body = JSON.createObjectNode()
                .put("username", TributaryCluster.ADMIN_USER)
                .put("password", TributaryCluster.ADMIN_PASSWORD)
                .toString();
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(sessionApiUrl + "/api/v1/admin/tokens"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 201) {
                throw new IllegalStateException(
                        "admin login at " + sessionApiUrl + ": HTTP " + response.statusCode() + " " + response.body());
            }
            return JSON.readTree(response.body()).get("token").asString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
