package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.kafka.DownlinkType;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import io.tributary.session.auth.AuthFailureStore;
import io.tributary.session.auth.AuthMaintenance;
import io.tributary.session.support.FeedReader;
import io.tributary.session.support.TestEngines;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Credentials, CONNECT authentication and ACL resolution over real HTTP against real PostgreSQL, Redis and Kafka:
 * what is stored, what the node is told, which downlink commands a change produces.
 * Ordered before {@link OutageIntegrationTest}, which stops the shared engines.
 */
@Order(3)
class AuthIntegrationTest extends ServiceTestBase {

    private long create(Map<String, Object> body) throws Exception {
        Response r = sendJson("POST", "/api/v1/auth/credentials", body);
        assertThat(r.status()).as("create: %s", r.body()).isEqualTo(201);
        return r.body().path("id").asLong();
    }

    private Response connect(
            String clientId, String nodeId, String username, String password, ConnectApi.Will will, boolean cleanStart)
            throws Exception {
        return post(SessionApi.CONNECT, connectRequest(clientId, nodeId, cleanStart, 3600, username, password, will));
    }

    @Test
    void credential_is_stored_hashed_and_never_returned_and_bad_input_is_400() throws Exception {
        long id = create(Map.of(
                "username",
                "ann",
                "password",
                "pw-ann",
                "publish",
                List.of("t/%u/#"),
                "subscribe",
                List.of("cmd/%c/+")));
        String hash = jdbc.sql("SELECT password_hash FROM credentials WHERE id = :id")
                .param("id", id)
                .query(String.class)
                .single();
        assertThat(hash).startsWith("$2a$").doesNotContain("pw-ann");
        JsonNode view = get("/api/v1/auth/credentials/" + id).body();
        assertThat(view.toString())
                .doesNotContain("pw-ann")
                .doesNotContain(hash)
                .doesNotContain("password");
        assertThat(view.path("publish").get(0).asString()).isEqualTo("t/%u/#");
        assertThat(get("/api/v1/auth/credentials?page=0&size=1000")
                        .body()
                        .path("total")
                        .asLong())
                .isPositive();

        Response duplicate = sendJson("POST", "/api/v1/auth/credentials", Map.of("username", "ann", "password", "x"));
        assertThat(duplicate.status()).isEqualTo(409);
        Response bad = sendJson(
                "POST",
                "/api/v1/auth/credentials",
                Map.of("username", "bob", "password", "x", "publish", List.of("a/#/b")));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().path("error").asString()).contains("publish");
        assertThat(sendJson("POST", "/api/v1/auth/credentials", Map.of("password", "x"))
                        .status())
                .isEqualTo(400);
        assertThat(get("/api/v1/auth/credentials?size=0").status()).isEqualTo(400);
        assertThat(get("/api/v1/auth/credentials/999999999").status()).isEqualTo(404);
    }

    @Test
    void connect_with_the_password_gets_the_resolved_acl_and_the_session_is_linked() throws Exception {
        long id = create(Map.of(
                "username",
                "meter-owner",
                "password",
                "pw1",
                "publish",
                List.of("meters/%c/#", "users/%u/out"),
                "subscribe",
                List.of("cmd/%c/+")));
        Response r = connect("meter-9", "node-auth", "meter-owner", "pw1", null, true);
        assertThat(r.status()).as("%s", r.body()).isEqualTo(200);
        ConnectApi.ConnectResponse response = json.treeToValue(r.body(), ConnectApi.ConnectResponse.class);
        assertThat(response.acl().publish()).containsExactly("meters/meter-9/#", "users/meter-owner/out");
        assertThat(response.acl().subscribe()).containsExactly("cmd/meter-9/+");
        assertThat(jdbc.sql("SELECT credential_id FROM sessions WHERE client_id = 'meter-9'")
                        .query(Long.class)
                        .single())
                .isEqualTo(id);

        // Anonymous (no credential fits, no password): unrestricted where anonymous access is on, as here.
        Response anonymous = connect("anon-1", "node-auth", null, null, null, true);
        assertThat(anonymous.status()).isEqualTo(200);
        assertThat(anonymous.body().path("acl").isNull()).isTrue();
    }

    @Test
    void wrong_password_unknown_user_and_bad_will_are_refused_403_and_recorded() throws Exception {
        create(Map.of("username", "carl", "password", "right", "publish", List.of("carl/#")));
        Response wrong = connect("carl-1", "node-auth", "carl", "wrong", null, true);
        assertThat(wrong.status()).isEqualTo(403);
        assertThat(wrong.body().path("reason").asString()).isEqualTo("BAD_USERNAME_OR_PASSWORD");
        Response unknown = connect("carl-1", "node-auth", "nobody-" + System.nanoTime(), "pw", null, true);
        assertThat(unknown.body().path("reason").asString()).isEqualTo("BAD_USERNAME_OR_PASSWORD");
        Response will = connect(
                "carl-1",
                "node-auth",
                "carl",
                "right",
                new ConnectApi.Will("elsewhere/x", new byte[0], 0, false, 0, null),
                true);
        assertThat(will.status()).isEqualTo(403);
        assertThat(will.body().path("reason").asString()).isEqualTo("NOT_AUTHORIZED");
        assertThat(get("/api/v1/sessions/carl-1").status())
                .as("no session for a refused CONNECT")
                .isEqualTo(404);

        JsonNode rows = get("/api/v1/auth/failures").body().path("items");
        JsonNode row = null;
        for (JsonNode r : rows) {
            if (r.path("clientId").asString().equals("carl-1")) {
                row = r;
            }
        }
        assertThat(row).isNotNull();
        assertThat(row.path("remoteIp").asString()).isEqualTo("10.1.2.3");
        assertThat(row.path("failures").asLong()).isEqualTo(3);
        assertThat(row.path("lastCause").asString()).isEqualTo("will_not_authorized");
        String scrape = scrape();
        assertThat(metricValue(scrape, "tributary_auth_failures_total")).isGreaterThanOrEqualTo(3);
    }

    @Autowired
    private AuthFailureStore failureStore;

    @Autowired
    private AuthMaintenance maintenance;

    @Test
    void failed_authentications_are_kept_to_a_maximum_of_rows_the_most_recent() {
        // Five rows older than anything the other tests write: the cap set just below the table's size removes
        // exactly the three oldest of them.
        Instant longAgo = Instant.parse("2000-01-01T00:00:00Z");
        for (int i = 0; i < 5; i++) {
            failureStore.record("capped-" + i, "10.9.9." + i, null, "bad_password", longAgo.plusSeconds(i));
        }
        long before = failureStore.count();

        int removed = failureStore.keepNewest(before - 3);

        assertThat(removed).isEqualTo(3);
        assertThat(failureStore.count()).isEqualTo(before - 3);
        List<String> left = jdbc.sql(
                        "SELECT client_id FROM auth_failures WHERE client_id LIKE 'capped-%'" + " ORDER BY client_id")
                .query(String.class)
                .list();
        assertThat(left).containsExactly("capped-3", "capped-4");
        // The scheduled check with the configured cap (100,000) leaves a small table alone.
        maintenance.trim();
        assertThat(failureStore.count()).isEqualTo(before - 3);
    }

    /** A CONNECT of {@code clientId} with a user name and password, from {@code address}. */
    private Response connectFrom(String address, String clientId, String username, String password) throws Exception {
        return post(
                SessionApi.CONNECT,
                new ConnectApi.ConnectRequest(
                        clientId,
                        "node-auth",
                        true,
                        0,
                        5,
                        30,
                        "/" + address + ":4567",
                        username,
                        null,
                        null,
                        password.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        null));
    }

    @Test
    void an_address_past_its_failed_passwords_for_one_user_name_is_refused_unchecked() throws Exception {
        create(Map.of("username", "gina", "password", "right", "publish", List.of("gina/#")));
        create(Map.of("username", "hugo", "password", "right", "publish", List.of("hugo/#")));
        // The default limit: 10 failures per user name and address in 5 minutes.
        for (int i = 0; i < 10; i++) {
            Response wrong = connectFrom("10.66.0.1", "gina-" + i, "gina", "wrong-" + i);
            assertThat(wrong.body().path("reason").asString())
                    .as("failure %d is checked", i + 1)
                    .isEqualTo("BAD_USERNAME_OR_PASSWORD");
        }
        long failuresBefore = jdbc.sql("SELECT coalesce(sum(failures), 0) FROM auth_failures WHERE remote_ip = ?")
                .param("10.66.0.1")
                .query(Long.class)
                .single();

        Response heldBack = connectFrom("10.66.0.1", "gina-ok", "gina", "right");
        assertThat(heldBack.status()).isEqualTo(403);
        assertThat(heldBack.body().path("reason").asString())
                .as("even the right password is not checked while held back")
                .isEqualTo("CONNECTION_RATE_EXCEEDED");
        assertThat(heldBack.body().path("message").asString()).contains("try again in");
        assertThat(jdbc.sql("SELECT coalesce(sum(failures), 0) FROM auth_failures WHERE remote_ip = ?")
                        .param("10.66.0.1")
                        .query(Long.class)
                        .single())
                .as("a held-back CONNECT writes no failure row")
                .isEqualTo(failuresBefore);

        assertThat(connectFrom("10.66.0.2", "gina-ok", "gina", "right").status())
                .as("the same user name from another address")
                .isEqualTo(200);
        assertThat(connectFrom("10.66.0.1", "hugo-ok", "hugo", "right").status())
                .as("another user name from the same address")
                .isEqualTo(200);
        String scrape = scrape();
        assertThat(scrape).contains("cause=\"auth_back_off\"");
    }

    @Test
    void blocking_sends_disconnect_0x87_to_the_node_holding_the_client() throws Exception {
        long id = create(Map.of("username", "dora", "password", "pw", "publish", List.of("#")));
        Response r = connect("dora-1", "node-blk", "dora", "pw", null, true);
        long epoch = r.body().path("epoch").asLong();

        Response blocked = sendJson(
                "PUT",
                "/api/v1/auth/credentials/" + id,
                Map.of("username", "dora", "blocked", true, "publish", List.of("#")));
        assertThat(blocked.status()).as("%s", blocked.body()).isEqualTo(200);
        assertThat(blocked.body().path("blocked").asBoolean()).isTrue();

        List<ConsumerRecord<byte[], byte[]>> commands = FeedReader.withKey(
                FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.downlink("node-blk")), utf8("dora-1"));
        assertThat(commands).hasSize(1);
        ConsumerRecord<byte[], byte[]> command = commands.get(0);
        assertThat(DownlinkType.fromHeader(RecordHeaders.readBytes(command.headers(), RecordHeaders.DOWNLINK_TYPE)))
                .isEqualTo(DownlinkType.DISCONNECT);
        assertThat(RecordHeaders.readInt(command.headers(), RecordHeaders.REASON_CODE))
                .isEqualTo(0x87);
        assertThat(RecordHeaders.readLong(command.headers(), RecordHeaders.EPOCH))
                .isEqualTo(epoch);

        Response again = connect("dora-1", "node-blk", "dora", "pw", null, true);
        assertThat(again.status()).isEqualTo(403);
        assertThat(again.body().path("reason").asString()).isEqualTo("NOT_AUTHORIZED");
    }

    @Test
    void a_resumed_session_loses_subscriptions_its_changed_acl_no_longer_allows() throws Exception {
        long id = create(Map.of("username", "eve", "password", "pw", "subscribe", List.of("a/#", "b/#")));
        assertThat(connect("eve-1", "node-res", "eve", "pw", null, true).status())
                .isEqualTo(200);
        long epoch = jdbc.sql("SELECT epoch FROM sessions WHERE client_id = 'eve-1'")
                .query(Long.class)
                .single();
        Response sub = post(
                SessionApi.SUBSCRIBE,
                new SubscribeApi.SubscribeRequest("eve-1", epoch, "node-res", List.of(sub("a/x", 1), sub("b/y", 1))));
        assertThat(sub.status()).isEqualTo(200);
        post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("eve-1", epoch, "node-res", 3600));

        assertThat(sendJson(
                                "PUT",
                                "/api/v1/auth/credentials/" + id,
                                Map.of("username", "eve", "subscribe", List.of("a/#")))
                        .status())
                .isEqualTo(200);
        Response resumed = connect("eve-1", "node-res", "eve", "pw", null, false);
        ConnectApi.ConnectResponse response = json.treeToValue(resumed.body(), ConnectApi.ConnectResponse.class);
        assertThat(response.sessionPresent()).isTrue();
        assertThat(response.subscriptions())
                .extracting(SubscribeApi.Subscription::filter)
                .containsExactly("a/x");
        assertThat(get("/api/v1/sessions/eve-1/subscriptions").body().toString())
                .doesNotContain("b/y");
    }

    @Test
    void deleting_a_credential_returns_204_and_it_is_gone() throws Exception {
        long id = create(Map.of("clientId", "fred-1", "password", "pw"));
        assertThat(send("DELETE", "/api/v1/auth/credentials/" + id).status()).isEqualTo(204);
        assertThat(send("DELETE", "/api/v1/auth/credentials/" + id).status()).isEqualTo(404);
        // The client id is no longer protected; with anonymous access on it may connect without a password.
        assertThat(connect("fred-1", "node-auth", null, null, null, true).status())
                .isEqualTo(200);
    }

    /** A CONNECT as a transport node's warm-up sends it ({@code ConnectApi.ConnectRequest#warmUp}). */
    private Response warmUpConnect(String clientId, String nodeId, String password) throws Exception {
        ConnectApi.ConnectRequest r = connectRequest(clientId, nodeId, true, 0, null, password, null);
        return post(
                SessionApi.CONNECT,
                new ConnectApi.ConnectRequest(
                        r.clientId(),
                        r.nodeId(),
                        r.cleanStart(),
                        r.sessionExpirySeconds(),
                        r.protocolVersion(),
                        r.keepAliveSeconds(),
                        r.remoteAddress(),
                        r.username(),
                        r.nodeIncarnation(),
                        r.will(),
                        r.password(),
                        r.certificateCommonName(),
                        true));
    }

    @Test
    void a_nodes_warm_up_session_is_held_to_its_warm_up_namespace_whatever_credentials_say() throws Exception {
        // A credential naming a warm-up client id does not apply to the node's own warm-up, nor gives it more.
        create(Map.of("clientId", "$warmup/node-warm/7", "password", "pw-w", "publish", List.of("#")));
        Response warm = warmUpConnect("$warmup/node-warm/7", "node-warm", null);
        assertThat(warm.status()).as("%s", warm.body()).isEqualTo(200);
        ConnectApi.ConnectResponse response = json.treeToValue(warm.body(), ConnectApi.ConnectResponse.class);
        assertThat(response.acl().publish()).containsExactly("$warmup/node-warm/#");
        assertThat(response.acl().subscribe()).containsExactly("$warmup/node-warm/#");
        assertThat(response.tenant()).isNull();

        // Only its own node's namespace: another node's, or an ordinary client id, is refused.
        for (String clientId : List.of("$warmup/other-node/1", "meter-1", "$warmup/node-warmer/1")) {
            Response outside = warmUpConnect(clientId, "node-warm", null);
            assertThat(outside.status()).as(clientId).isEqualTo(SessionApi.CONNECT_REFUSED_STATUS);
            assertThat(outside.body().path("reason").asString()).isEqualTo("NOT_AUTHORIZED");
        }

        // Without the node's mark the same client id is an ordinary CONNECT: the credential naming it applies.
        Response unmarked = connect("$warmup/node-warm/7", "node-warm", null, null, null, true);
        assertThat(unmarked.status()).isEqualTo(SessionApi.CONNECT_REFUSED_STATUS);
        assertThat(connect("$warmup/node-warm/7", "node-warm", null, "pw-w", null, true)
                        .body()
                        .path("acl")
                        .path("publish")
                        .get(0)
                        .asString())
                .isEqualTo("#");
    }
}
