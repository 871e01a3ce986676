package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.SessionApi;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Credentials naming a client certificate CN: a mutual-TLS CONNECT (the transport passes the verified CN) is
 * authenticated without a password, {@code %cn} is filled in, and a certificate-only credential protects the user
 * name / client id it names. Ordered before {@link OutageIntegrationTest}.
 */
@Order(3)
class CertificateAuthIntegrationTest extends ServiceTestBase {

    private long create(Map<String, Object> body) throws Exception {
        Response r = sendJson("POST", "/api/v1/auth/credentials", body);
        assertThat(r.status()).as("create: %s", r.body()).isEqualTo(201);
        return r.body().path("id").asLong();
    }

    private Response connect(String clientId, String username, String password, String cn) throws Exception {
        return post(
                SessionApi.CONNECT,
                new ConnectApi.ConnectRequest(
                        clientId,
                        "node-cert",
                        true,
                        0,
                        5,
                        30,
                        "/10.9.8.7:1234",
                        username,
                        null,
                        null,
                        password == null ? null : password.getBytes(StandardCharsets.UTF_8),
                        cn));
    }

    private ConnectApi.Acl acl(Response r) throws Exception {
        assertThat(r.status()).as("%s", r.body()).isEqualTo(200);
        return json.treeToValue(r.body(), ConnectApi.ConnectResponse.class).acl();
    }

    @Test
    void a_certificate_cn_credential_authenticates_without_password_and_fills_cn() throws Exception {
        long id = create(Map.of(
                "certificateCn",
                "meter-cn-1",
                "publish",
                List.of("meters/%cn/#"),
                "subscribe",
                List.of("cmd/%cn/+", "all/%c")));
        assertThat(get("/api/v1/auth/credentials/" + id)
                        .body()
                        .path("certificateCn")
                        .asString())
                .isEqualTo("meter-cn-1");
        assertThat(jdbc.sql("SELECT password_hash FROM credentials WHERE id = :id")
                        .param("id", id)
                        .query(String.class)
                        .optional())
                .isEmpty();

        ConnectApi.Acl acl = acl(connect("cert-client-1", null, null, "meter-cn-1"));
        assertThat(acl.publish()).containsExactly("meters/meter-cn-1/#");
        assertThat(acl.subscribe()).containsExactly("cmd/meter-cn-1/+", "all/cert-client-1");
        assertThat(jdbc.sql("SELECT credential_id FROM sessions WHERE client_id = 'cert-client-1'")
                        .query(Long.class)
                        .single())
                .isEqualTo(id);

        // The certificate does not prove a user name: %u entries of a credential not naming one match nothing.
        create(Map.of("certificateCn", "cn-u", "publish", List.of("users/%u/#", "cn/%cn")));
        assertThat(acl(connect("cert-client-3", "bob", null, "cn-u")).publish()).containsExactly("cn/cn-u");

        // Another CN is not this credential: no credential fits, anonymous (on in these tests) and unrestricted.
        Response other = connect("cert-client-2", null, null, "someone-else");
        assertThat(other.status()).isEqualTo(200);
        assertThat(other.body().path("acl").isNull()).isTrue();
    }

    @Test
    void a_certificate_credential_naming_a_client_id_needs_both() throws Exception {
        create(Map.of("certificateCn", "dev-cn-2", "clientId", "dev-2", "publish", List.of("dev/%c/%cn")));
        assertThat(acl(connect("dev-2", null, null, "dev-cn-2")).publish()).containsExactly("dev/dev-2/dev-cn-2");

        // Its client id without the certificate: refused, also with a password, also with anonymous access on.
        Response noCert = connect("dev-2", null, null, null);
        assertThat(noCert.status()).isEqualTo(403);
        assertThat(noCert.body().path("reason").asString()).isEqualTo("BAD_USERNAME_OR_PASSWORD");
        assertThat(connect("dev-2", "x", "guess", "wrong-cn").status()).isEqualTo(403);
        assertThat(jdbc.sql("SELECT last_cause FROM auth_failures WHERE client_id = 'dev-2'")
                        .query(String.class)
                        .list())
                .isNotEmpty();
    }

    @Test
    void a_blocked_certificate_credential_is_refused() throws Exception {
        Map<String, Object> body = new HashMap<>(Map.of("certificateCn", "blocked-cn", "publish", List.of("b/#")));
        long id = create(body);
        assertThat(connect("blk-1", null, null, "blocked-cn").status()).isEqualTo(200);
        body.put("blocked", true);
        assertThat(sendJson("PUT", "/api/v1/auth/credentials/" + id, body).status())
                .isEqualTo(200);
        Response refused = connect("blk-1", null, null, "blocked-cn");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.body().path("reason").asString()).isEqualTo("NOT_AUTHORIZED");
    }

    @Test
    void password_credentials_see_the_cn_too_and_bad_input_is_400() throws Exception {
        create(Map.of("username", "pw-cn", "password", "pw", "publish", List.of("x/%cn/#", "y/%u")));
        assertThat(acl(connect("pwcn-1", "pw-cn", "pw", "abc")).publish()).containsExactly("x/abc/#", "y/pw-cn");
        assertThat(acl(connect("pwcn-1", "pw-cn", "pw", null)).publish())
                .as("no certificate: %cn entries dropped")
                .containsExactly("y/pw-cn");

        assertThat(sendJson("POST", "/api/v1/auth/credentials", Map.of("clientId", "nopw"))
                        .status())
                .isEqualTo(400);
        assertThat(sendJson("POST", "/api/v1/auth/credentials", Map.of("certificateCn", ""))
                        .status())
                .isEqualTo(400);
        long certOnly = create(Map.of("certificateCn", "cn-to-drop"));
        Response dropCn = sendJson("PUT", "/api/v1/auth/credentials/" + certOnly, Map.of("clientId", "c"));
        assertThat(dropCn.status()).as("no password left: %s", dropCn.body()).isEqualTo(400);
    }
}
