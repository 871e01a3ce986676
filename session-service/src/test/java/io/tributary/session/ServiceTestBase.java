package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.session.internal.InternalConnector;
import io.tributary.session.support.FeedReader;
import io.tributary.session.support.TestEngines;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole service over real HTTP against real PostgreSQL, Redis and Kafka ({@link TestEngines}). Subclasses share
 * one application context (same configuration), so the service starts once for all of them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class ServiceTestBase {

    protected static final int PARTITIONS = 3;
    protected static final long NEVER = 0xFFFFFFFFL;

    @DynamicPropertySource
    static void engines(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", TestEngines::postgresUrl);
        registry.add("spring.datasource.username", () -> "postgres");
        registry.add("spring.datasource.password", () -> "");
        registry.add("spring.datasource.hikari.connection-timeout", () -> "2000");
        registry.add("tributary.session.kafka.bootstrap-servers", TestEngines::kafkaBootstrap);
        registry.add("tributary.session.kafka.topics.publish-partitions", () -> PARTITIONS);
        registry.add("tributary.session.kafka.topics.wildcard-partitions", () -> 2);
        registry.add("tributary.session.kafka.max-block", () -> "2s");
        registry.add("tributary.session.kafka.ack-timeout", () -> "3s");
        registry.add("tributary.session.redis.url", TestEngines::redisUrl);
        // The tests run the sweep themselves; keep the scheduled one out of their way.
        registry.add("tributary.session.expiry.sweep-interval", () -> "1h");
        // Likewise the node liveness detector and the will publisher: tests call them.
        registry.add("tributary.session.liveness.check-interval", () -> "1h");
        registry.add("tributary.session.liveness.node-timeout", () -> "1s");
        registry.add("tributary.session.wills.publish-interval", () -> "1h");
        // These tests connect without credentials, as the quick start lets clients do; AuthIntegrationTest covers
        // credentials, and the refusal of anonymous clients in the default (production) configuration.
        registry.add("tributary.session.auth.anonymous", () -> "true");
        // The cheapest cost bcrypt allows: the tests check behaviour, not hash strength.
        registry.add("tributary.session.auth.bcrypt-cost", () -> "4");
        // $SYS records would land among the records tests read; SysStatsIntegrationTest calls ClusterStats itself.
        registry.add("tributary.sys.interval", () -> "0s");
        // The first admin of the REST API, as TRIBUTARY_ADMIN_USER / TRIBUTARY_ADMIN_PASSWORD configure it.
        registry.add("tributary.session.admin.user", () -> ADMIN_USER);
        registry.add("tributary.session.admin.password", () -> ADMIN_PASSWORD);
        registry.add("tributary.internal.transport-token", () -> INTERNAL_TOKEN);
        registry.add("tributary.internal.routing-token", () -> ROUTING_TOKEN);
        // The internal API and the actuator on ports of their own, as in production; free ones here.
        registry.add("tributary.internal.port", () -> "0");
        registry.add("management.server.port", () -> "0");
    }

    /**
     * The transport nodes' internal token in these tests ({@code TRIBUTARY_INTERNAL_TRANSPORT_TOKEN}); every internal
     * call of {@link #request} carries it, as the transport nodes make most of them.
     */
    protected static final String INTERNAL_TOKEN = "test-internal-token-0123456789";

    /** The routing nodes' internal token in these tests ({@code TRIBUTARY_INTERNAL_ROUTING_TOKEN}). */
    protected static final String ROUTING_TOKEN = "test-routing-token-9876543210";

    protected static final String ADMIN_USER = "admin";
    protected static final String ADMIN_PASSWORD = "test-admin-password";
    /** Bearer token of the admin REST API, shared by the tests of this context. */
    private static volatile String adminToken;

    private static RedisClient redisClient;
    protected static StatefulRedisConnection<String, String> redis;
    protected final HttpClient http = HttpClient.newHttpClient();

    /** The admin REST API and the console. */
    @LocalServerPort
    protected int port;

    /** The actuator. */
    @LocalManagementPort
    protected int managementPort;

    @Autowired
    private InternalConnector internalConnector;

    @Autowired
    protected JsonMapper json;

    @Autowired
    protected JdbcClient jdbc;

    @BeforeAll
    static void redisClient() {
        redisClient = RedisClient.create(TestEngines.redisUrl());
        redis = redisClient.connect();
    }

    @AfterAll
    static void closeRedis() {
        redis.close();
        redisClient.shutdown();
    }

    protected record Response(int status, JsonNode body) {}

    protected ConnectApi.ConnectResponse connect(String clientId, String nodeId, boolean cleanStart, long expiry)
            throws Exception {
        Response r = post(
                SessionApi.CONNECT,
                new ConnectApi.ConnectRequest(clientId, nodeId, cleanStart, expiry, 5, 30, "127.0.0.1:1", "user"));
        assertThat(r.status()).as("connect %s: %s", clientId, r.body()).isEqualTo(200);
        return json.treeToValue(r.body(), ConnectApi.ConnectResponse.class);
    }

    /** One call of the UNSUBSCRIBE batch endpoint; the outcomes, in order. */
    protected List<SubscribeApi.UnsubscribeOutcome> unsubscribeBatch(SubscribeApi.UnsubscribeRequest... requests)
            throws Exception {
        Response r = post(SessionApi.UNSUBSCRIBE_BATCH, new SubscribeApi.UnsubscribeBatch(List.of(requests)));
        assertThat(r.status()).as("unsubscribe batch: %s", r.body()).isEqualTo(200);
        return json.treeToValue(r.body(), SubscribeApi.UnsubscribeBatchResponse.class)
                .outcomes();
    }

    protected static SubscribeApi.Subscription sub(String filter, int qos) {
        return new SubscribeApi.Subscription(filter, qos, false, false, 0);
    }

    protected static List<Integer> codes(JsonNode body) {
        return body.get("reasonCodes").valueStream().map(JsonNode::asInt).toList();
    }

    protected void expireNow(String clientId) {
        jdbc.sql("UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE client_id = :id")
                .param("id", clientId)
                .update();
    }

    protected static Instant toInstant(Object timestamp) {
        if (timestamp instanceof OffsetDateTime odt) {
            return odt.toInstant();
        }
        return ((java.sql.Timestamp) timestamp).toInstant();
    }

    protected static ConsumerRecord<byte[], byte[]> last(String topic, String filter, String clientId) {
        List<ConsumerRecord<byte[], byte[]>> records = FeedReader.withKey(
                FeedReader.readAll(TestEngines.kafkaBootstrap(), topic), SubscriptionRecord.key(filter, clientId));
        assertThat(records)
                .as("records of %s / %s on %s", filter, clientId, topic)
                .isNotEmpty();
        return records.get(records.size() - 1);
    }

    protected static SubscriptionRecord lastValue(String topic, String filter, String clientId) {
        ConsumerRecord<byte[], byte[]> record = last(topic, filter, clientId);
        assertThat(record.value())
                .as("latest record of %s / %s", filter, clientId)
                .isNotNull();
        return SubscriptionRecord.decode(record.value());
    }

    /** The service's Prometheus page. */
    protected String scrape() throws Exception {
        return http.send(
                        HttpRequest.newBuilder(uri("/actuator/prometheus"))
                                .GET()
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString())
                .body();
    }

    protected static double metricValue(String scrape, String name) {
        return scrape.lines()
                .filter(line -> line.startsWith(name + "{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    protected static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The path on the port that serves it: the internal API's, the actuator's, else the REST API's. */
    protected URI uri(String path) {
        return uri(portFor(path), path);
    }

    protected int portFor(String path) {
        if (path.startsWith("/internal/")) {
            return internalPort();
        }
        return path.startsWith("/actuator/") ? managementPort : port;
    }

    protected int internalPort() {
        return internalConnector.localPort();
    }

    protected static URI uri(int port, String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** A request to {@code path}, carrying the admin bearer token when it goes to the admin API. */
    protected HttpRequest.Builder request(String path) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30));
        if (path.startsWith("/internal/")) {
            return builder.header(SessionApi.TOKEN_HEADER, INTERNAL_TOKEN);
        }
        return path.startsWith("/api/") ? builder.header("Authorization", "Bearer " + adminToken()) : builder;
    }

    /** Makes the next admin request log in again (after a test removed the admins and their tokens). */
    protected static void forgetAdminToken() {
        adminToken = null;
    }

    protected String adminToken() throws Exception {
        if (adminToken == null) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(uri("/api/v1/admin/tokens"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"username\":\"" + ADMIN_USER + "\",\"password\":\"" + ADMIN_PASSWORD + "\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("admin token: %s", r.body()).isEqualTo(201);
            adminToken = json.readTree(r.body()).get("token").asString();
        }
        return adminToken;
    }

    protected Response post(String path, Object body) throws Exception {
        HttpRequest request = request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)))
                .build();
        return exchange(request);
    }

    protected Response sendJson(String method, String path, Object body) throws Exception {
        return exchange(request(path)
                .timeout(java.time.Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)))
                .build());
    }

    /** A CONNECT from {@code 10.1.2.3}, keep-alive 30 s, MQTT 5, with a user name and password when given. */
    protected static ConnectApi.ConnectRequest connectRequest(
            String clientId,
            String nodeId,
            boolean cleanStart,
            long expirySeconds,
            String username,
            String password,
            ConnectApi.Will will) {
        return new ConnectApi.ConnectRequest(
                clientId,
                nodeId,
                cleanStart,
                expirySeconds,
                5,
                30,
                "/10.1.2.3:4567",
                username,
                null,
                will,
                password == null ? null : password.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                null);
    }

    protected Response get(String path) throws Exception {
        return exchange(request(path).GET().build());
    }

    protected Response send(String method, String path) throws Exception {
        return exchange(request(path)
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build());
    }

    protected Response exchange(HttpRequest request) throws Exception {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        JsonNode body = response.body().isEmpty() ? null : json.readTree(response.body());
        return new Response(response.statusCode(), body);
    }

    /** Logs another admin user in; its bearer token. */
    protected String tokenOf(String username, String password) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(uri("/api/v1/admin/tokens"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(
                                json.writeValueAsBytes(Map.of("username", username, "password", password))))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("login %s: %s", username, r.body()).isEqualTo(201);
        return json.readTree(r.body()).get("token").asString();
    }

    /** A request with another admin's token; the path is sent as written (dot segments and all). */
    protected Response asAdmin(String token, String method, String path, Object body) throws Exception {
        HttpRequest.BodyPublisher publisher = body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body));
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri(path))
                .header("Authorization", "Bearer " + token)
                .method(method, publisher);
        if (body != null) {
            builder.header("Content-Type", "application/json");
        }
        HttpResponse<String> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode parsed = response.body().isEmpty() ? null : json.readTree(response.body());
        return new Response(response.statusCode(), parsed);
    }
}
