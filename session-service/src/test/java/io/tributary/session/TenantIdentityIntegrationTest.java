package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.SessionApi;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;

/**
 * Issue 34, first finding: an identity (user name, client id, certificate CN) belongs to one namespace. A tenant's
 * admin cannot name another namespace's identity (and is not told whose it is), so it cannot pull another tenant's
 * device into its own tenant with a more specific credential; the database holds the rule for every writer.
 */
@Order(3)
class TenantIdentityIntegrationTest extends ServiceTestBase {

    private static final String PASSWORD = "ident-admin-password-1";
    private static String attackerToken;

    /** Tenants ident-home (the victim, its credentials made by the cluster admin) and ident-evil with its admin. */
    @BeforeEach
    void tenants() throws Exception {
        if (attackerToken != null) {
            return;
        }
        assertThat(sendJson("POST", "/api/v1/tenants", Map.of("id", "ident-home"))
                        .status())
                .isEqualTo(201);
        assertThat(sendJson("POST", "/api/v1/tenants", Map.of("id", "ident-evil"))
                        .status())
                .isEqualTo(201);
        created(sendJson(
                "POST",
                "/api/v1/auth/credentials",
                Map.of("certificateCn", "ident-home-meter", "tenant", "ident-home", "publish", List.of("m/%cn"))));
        created(sendJson(
                "POST",
                "/api/v1/auth/credentials",
                Map.of("username", "ident-home-user", "password", "pw-home", "tenant", "ident-home")));
        created(sendJson(
                "POST",
                "/api/v1/auth/credentials",
                Map.of("clientId", "ident-home-dev", "password", "pw-dev", "tenant", "ident-home")));
        created(sendJson("POST", "/api/v1/auth/credentials", Map.of("certificateCn", "ident-global-cn")));
        created(sendJson(
                "POST",
                "/api/v1/admin/users",
                Map.of("username", "ident-evil-admin", "password", PASSWORD, "tenant", "ident-evil")));
        attackerToken = tokenOf("ident-evil-admin", PASSWORD);
    }

    private static long created(Response r) {
        assertThat(r.status()).as("%s", r.body()).isEqualTo(201);
        return r.body().path("id").asLong();
    }

    private Response connectByCertificate(String clientId, String cn) throws Exception {
        return post(
                SessionApi.CONNECT,
                new ConnectApi.ConnectRequest(
                        clientId, "node-ident", true, 0, 5, 30, "/10.4.4.4:1", null, null, null, null, cn));
    }

    @Test
    void a_tenant_admin_cannot_name_another_tenants_certificate_cn_and_the_device_stays_in_its_tenant()
            throws Exception {
        // The attack of the finding: a more specific credential for the victim's CN, no password needed.
        Response capture = asAdmin(
                attackerToken,
                "POST",
                "/api/v1/auth/credentials",
                Map.of("certificateCn", "ident-home-meter", "clientId", "ident-home-meter-1", "publish", List.of("#")));
        assertThat(capture.status()).as("%s", capture.body()).isEqualTo(409);

        Response device = connectByCertificate("ident-home-meter-1", "ident-home-meter");
        assertThat(device.status()).as("%s", device.body()).isEqualTo(200);
        assertThat(device.body().path("tenant").asString()).isEqualTo("ident-home");
        assertThat(device.body().path("acl").path("publish").get(0).asString()).isEqualTo("m/ident-home-meter");
    }

    @Test
    void a_tenant_admin_cannot_name_another_tenants_user_name_or_client_id() throws Exception {
        // A user name is also a JWT subject: a credential naming it would take the subject's tokens.
        assertThat(asAdmin(
                                attackerToken,
                                "POST",
                                "/api/v1/auth/credentials",
                                Map.of(
                                        "username",
                                        "ident-home-user",
                                        "clientId",
                                        "ident-evil-1",
                                        "password",
                                        "pw-evil-1"))
                        .status())
                .isEqualTo(409);
        assertThat(asAdmin(
                                attackerToken,
                                "POST",
                                "/api/v1/auth/credentials",
                                Map.of("username", "ident-evil-2", "clientId", "ident-home-dev", "password", "pw"))
                        .status())
                .isEqualTo(409);
        // Nor move its own credential onto one.
        long own = created(asAdmin(
                attackerToken,
                "POST",
                "/api/v1/auth/credentials",
                Map.of("username", "ident-evil-own", "password", "pw-own")));
        assertThat(asAdmin(
                                attackerToken,
                                "PUT",
                                "/api/v1/auth/credentials/" + own,
                                Map.of("username", "ident-evil-own", "certificateCn", "ident-home-meter"))
                        .status())
                .isEqualTo(409);

        Response home = post(
                SessionApi.CONNECT,
                connectRequest("ident-evil-1", "node-ident", true, 0, "ident-home-user", "pw-home", null));
        assertThat(home.status()).as("%s", home.body()).isEqualTo(200);
        assertThat(home.body().path("tenant").asString()).isEqualTo("ident-home");
    }

    @Test
    void a_refused_identity_gets_one_answer_whoever_holds_it() throws Exception {
        created(asAdmin(
                attackerToken,
                "POST",
                "/api/v1/auth/credentials",
                Map.of("username", "ident-evil-dup", "password", "pw-dup")));
        Response ownDuplicate = asAdmin(
                attackerToken,
                "POST",
                "/api/v1/auth/credentials",
                Map.of("username", "ident-evil-dup", "password", "pw-dup"));
        Response heldElsewhere = asAdmin(
                attackerToken,
                "POST",
                "/api/v1/auth/credentials",
                Map.of("username", "ident-home-user", "password", "pw-dup"));
        Response heldGlobally =
                asAdmin(attackerToken, "POST", "/api/v1/auth/credentials", Map.of("certificateCn", "ident-global-cn"));
        assertThat(ownDuplicate.status()).isEqualTo(409);
        assertThat(heldElsewhere.status()).as("%s", heldElsewhere.body()).isEqualTo(409);
        assertThat(heldElsewhere.body()).isEqualTo(ownDuplicate.body());
        assertThat(heldGlobally.status()).as("%s", heldGlobally.body()).isEqualTo(409);
        assertThat(heldGlobally.body()).isEqualTo(ownDuplicate.body());
        assertThat(heldElsewhere.body().toString()).doesNotContain("ident-home");
        // Held by nobody: the tenant's to take.
        assertThat(asAdmin(attackerToken, "POST", "/api/v1/auth/credentials", Map.of("certificateCn", "ident-free-cn"))
                        .status())
                .isEqualTo(201);
    }

    @Test
    void the_database_keeps_each_identity_in_one_namespace() throws Exception {
        // Any writer, not only the admin API: the same CN in another tenant, or in the global namespace.
        for (String tenant : new String[] {"ident-evil", null}) {
            assertThatThrownBy(() -> jdbc.sql("INSERT INTO credentials (certificate_cn, tenant_id, created_at,"
                                    + " updated_at) VALUES ('ident-home-meter', :tenant, now(), now())")
                            .param("tenant", tenant)
                            .update())
                    .as("tenant %s", tenant)
                    .isInstanceOf(DataIntegrityViolationException.class);
        }
        // The cluster admin is told which namespace holds it (it may see them all).
        Response cluster = sendJson(
                "POST",
                "/api/v1/auth/credentials",
                Map.of("certificateCn", "ident-home-meter", "clientId", "x1", "tenant", "ident-evil"));
        assertThat(cluster.status()).isEqualTo(409);
        assertThat(cluster.body().path("error").asString())
                .contains("certificateCn")
                .contains("ident-home");
        // In its own namespace the identity may be named again.
        created(sendJson(
                "POST",
                "/api/v1/auth/credentials",
                Map.of(
                        "certificateCn",
                        "ident-home-meter",
                        "clientId",
                        "ident-home-meter-2",
                        "tenant",
                        "ident-home",
                        "password",
                        "pw-2")));
    }
}
