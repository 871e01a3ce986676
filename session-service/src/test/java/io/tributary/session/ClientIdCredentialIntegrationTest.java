package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SessionApi;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 34, second finding: a client id that has its own credential always needs that credential. Before, a user
 * name's credential (or a certificate's) outranked it, so any credential holder could CONNECT with another device's
 * client id and clean start 0 and take over its session and queued messages. Both CONNECT calls (one, and the batch
 * the transport nodes use) are checked.
 */
@Order(3)
class ClientIdCredentialIntegrationTest extends ServiceTestBase {

    private void create(Map<String, Object> body) throws Exception {
        Response r = sendJson("POST", "/api/v1/auth/credentials", body);
        assertThat(r.status()).as("create: %s", r.body()).isEqualTo(201);
    }

    private static ConnectApi.ConnectRequest request(
            String clientId, boolean cleanStart, String username, String password, String cn) {
        return new ConnectApi.ConnectRequest(
                clientId,
                "node-own",
                cleanStart,
                3600,
                5,
                30,
                "/10.5.5.5:1",
                username,
                null,
                null,
                password == null ? null : password.getBytes(StandardCharsets.UTF_8),
                cn);
    }

    private Response connect(ConnectApi.ConnectRequest request) throws Exception {
        return post(SessionApi.CONNECT, request);
    }

    private ConnectApi.ConnectOutcome connectInBatch(ConnectApi.ConnectRequest request) throws Exception {
        Response r = post(SessionApi.CONNECT_BATCH, new ConnectApi.ConnectBatch(List.of(request)));
        assertThat(r.status()).as("%s", r.body()).isEqualTo(200);
        return json.treeToValue(r.body(), ConnectApi.ConnectBatchResponse.class)
                .outcomes()
                .get(0);
    }

    /** The device's persistent session, offline now (its queue would wait for it). */
    private void parkSession(String clientId, String username, String password) throws Exception {
        Response device = connect(request(clientId, true, username, password, null));
        assertThat(device.status()).as("%s", device.body()).isEqualTo(200);
        long epoch = device.body().path("epoch").asLong();
        assertThat(post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest(clientId, epoch, "node-own", 3600))
                        .status())
                .isEqualTo(200);
    }

    private void assertRefused(ConnectApi.ConnectRequest attack) throws Exception {
        Response alone = connect(attack);
        assertThat(alone.status()).as("%s", alone.body()).isEqualTo(403);
        assertThat(alone.body().path("reason").asString()).isEqualTo("BAD_USERNAME_OR_PASSWORD");
        ConnectApi.ConnectOutcome batched = connectInBatch(attack);
        assertThat(batched.accepted()).as("in a batch").isNull();
        assertThat(batched.refused().reason()).isEqualTo(ConnectApi.RefusalReason.BAD_USERNAME_OR_PASSWORD);
    }

    @Test
    void a_user_name_credential_cannot_take_over_a_client_id_that_has_its_own() throws Exception {
        create(Map.of("clientId", "own-dev-1", "password", "pw-dev-1", "subscribe", List.of("cmd/%c/#")));
        create(Map.of("username", "own-fleet", "password", "pw-fleet", "subscribe", List.of("#")));
        parkSession("own-dev-1", null, "pw-dev-1");

        assertRefused(request("own-dev-1", false, "own-fleet", "pw-fleet", null));

        Response owner = connect(request("own-dev-1", false, null, "pw-dev-1", null));
        assertThat(owner.status()).as("%s", owner.body()).isEqualTo(200);
        assertThat(owner.body().path("sessionPresent").asBoolean()).isTrue();
        // The fleet's own devices, with client ids no credential names, still connect.
        assertThat(connect(request("own-fleet-7", true, "own-fleet", "pw-fleet", null))
                        .status())
                .isEqualTo(200);
    }

    @Test
    void a_certificate_credential_cannot_take_over_a_client_id_that_has_its_own() throws Exception {
        create(Map.of("clientId", "own-dev-2", "password", "pw-dev-2"));
        create(Map.of("certificateCn", "own-fleet-cn", "subscribe", List.of("#")));
        parkSession("own-dev-2", null, "pw-dev-2");

        assertRefused(request("own-dev-2", false, null, null, "own-fleet-cn"));
        assertThat(connect(request("own-fleet-cn-1", true, null, null, "own-fleet-cn"))
                        .status())
                .isEqualTo(200);
    }

    @Test
    void a_client_id_named_with_a_user_name_is_not_open_to_others_nor_to_anonymous_clients() throws Exception {
        create(Map.of("username", "own-pair", "clientId", "own-dev-3", "password", "pw-pair"));
        create(Map.of("username", "own-other", "password", "pw-other", "subscribe", List.of("#")));
        parkSession("own-dev-3", "own-pair", "pw-pair");

        assertRefused(request("own-dev-3", false, "own-other", "pw-other", null));
        // Anonymous access is on in these tests; a client id with a credential is still not anonymous's.
        assertRefused(request("own-dev-3", false, null, null, null));
        assertThat(connect(request("own-dev-3", false, "own-pair", "pw-pair", null))
                        .body()
                        .path("sessionPresent")
                        .asBoolean())
                .isTrue();
    }
}
