package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Admin users scoped to a tenant (issue #17): the cluster admin creates them over {@code /api/v1/admin/users}; a
 * scoped admin manages its tenant's credentials only, reads its own tenant, and gets 403 for the rest of the API
 * (deny by default), including tricks on the path. Real PostgreSQL, like the other integration tests here.
 */
@Order(3)
class AdminScopeIntegrationTest extends ServiceTestBase {

    private static final String PASSWORD = "scoped-admin-password-1";

    @Test
    void a_tenant_admin_manages_its_own_tenants_credentials_and_nothing_else() throws Exception {
        assertThat(sendJson("POST", "/api/v1/tenants", Map.of("id", "scope-a")).status())
                .isEqualTo(201);
        assertThat(sendJson("POST", "/api/v1/tenants", Map.of("id", "scope-b")).status())
                .isEqualTo(201);
        Response other = sendJson(
                "POST",
                "/api/v1/auth/credentials",
                Map.of("username", "scope-b-device", "password", "pw", "tenant", "scope-b"));
        assertThat(other.status()).isEqualTo(201);
        long otherId = other.body().path("id").asLong();
        Response global = sendJson(
                "POST", "/api/v1/auth/credentials", Map.of("username", "scope-global-device", "password", "pw"));
        assertThat(global.status()).isEqualTo(201);

        Response created = sendJson(
                "POST",
                "/api/v1/admin/users",
                Map.of("username", "scope-a-admin", "password", PASSWORD, "tenant", "scope-a"));
        assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
        assertThat(created.body().path("tenant").asString()).isEqualTo("scope-a");
        assertThat(created.body().has("passwordHash")).isFalse();
        long adminId = created.body().path("id").asLong();
        try {
            String token = tokenOf("scope-a-admin", PASSWORD);
            Response me = asAdmin(token, "GET", "/api/v1/admin/me", null);
            assertThat(me.status()).isEqualTo(200);
            assertThat(me.body().path("tenant").asString()).isEqualTo("scope-a");

            // Its tenant's credentials: created there without naming it, listed alone, changed and deleted.
            Response own = asAdmin(
                    token, "POST", "/api/v1/auth/credentials", Map.of("username", "scope-a-device", "password", "pw"));
            assertThat(own.status()).as("%s", own.body()).isEqualTo(201);
            assertThat(own.body().path("tenant").asString()).isEqualTo("scope-a");
            long ownId = own.body().path("id").asLong();
            Response list = asAdmin(token, "GET", "/api/v1/auth/credentials?size=1000", null);
            assertThat(list.status()).isEqualTo(200);
            assertThat(list.body().path("total").asLong()).isEqualTo(1);
            assertThat(list.body().path("items").get(0).path("username").asString())
                    .isEqualTo("scope-a-device");
            Map<String, Object> update = new HashMap<>(Map.of("username", "scope-a-device", "description", "meter"));
            Response updated = asAdmin(token, "PUT", "/api/v1/auth/credentials/" + ownId, update);
            assertThat(updated.status()).as("%s", updated.body()).isEqualTo(200);
            assertThat(updated.body().path("tenant").asString()).isEqualTo("scope-a");

            // Another tenant's credential does not exist for it, and it cannot put one anywhere else.
            assertThat(asAdmin(token, "GET", "/api/v1/auth/credentials/" + otherId, null)
                            .status())
                    .isEqualTo(404);
            assertThat(asAdmin(token, "DELETE", "/api/v1/auth/credentials/" + otherId, null)
                            .status())
                    .isEqualTo(404);
            assertThat(asAdmin(token, "PUT", "/api/v1/auth/credentials/" + otherId, update)
                            .status())
                    .isEqualTo(404);
            assertThat(get("/api/v1/auth/credentials/" + otherId).status())
                    .as("still there for the cluster admin")
                    .isEqualTo(200);
            Response elsewhere = asAdmin(
                    token,
                    "POST",
                    "/api/v1/auth/credentials",
                    Map.of("username", "scope-x", "password", "pw", "tenant", "scope-b"));
            assertThat(elsewhere.status()).isEqualTo(403);
            assertThat(elsewhere.body().path("error").asString()).contains("scoped to tenant 'scope-a'");
            update.put("tenant", "scope-b");
            assertThat(asAdmin(token, "PUT", "/api/v1/auth/credentials/" + ownId, update)
                            .status())
                    .as("moving its credential out of its tenant")
                    .isEqualTo(403);

            // Its own tenant, read only; the rest of the API is the cluster admin's.
            assertThat(asAdmin(token, "GET", "/api/v1/tenants/scope-a", null).status())
                    .isEqualTo(200);
            for (String[] call : new String[][] {
                {"GET", "/api/v1/tenants/scope-b"},
                {"GET", "/api/v1/tenants"},
                {"DELETE", "/api/v1/tenants/scope-a"},
                {"GET", "/api/v1/sessions"},
                {"GET", "/api/v1/retained"},
                {"GET", "/api/v1/overview"},
                {"GET", "/api/v1/auth/failures"},
                {"GET", "/api/v1/admin/users"},
                {"GET", "/api/v1/auth/credentials/../../sessions"},
                {"GET", "/api/v1/auth/credentials;x=1"},
                {"GET", "/api/v1/tenants/scope-a/../scope-b"},
            }) {
                Response refused = asAdmin(token, call[0], call[1], null);
                assertThat(refused.status()).as("%s %s", call[0], call[1]).isEqualTo(403);
                assertThat(refused.body().path("error").asString()).contains("is for admins of the whole cluster");
            }
            Response promote = asAdmin(
                    token, "POST", "/api/v1/admin/users", Map.of("username", "scope-escalate", "password", PASSWORD));
            assertThat(promote.status()).isEqualTo(403);

            // A tenant with a scoped admin stays until the admin goes.
            assertThat(asAdmin(token, "DELETE", "/api/v1/auth/credentials/" + ownId, null)
                            .status())
                    .isEqualTo(204);
            Response inUse = send("DELETE", "/api/v1/tenants/scope-a");
            assertThat(inUse.status()).isEqualTo(409);
            assertThat(inUse.body().path("error").asString()).contains("1 admin user(s)");

            assertThat(asAdmin(token, "DELETE", "/api/v1/admin/tokens", null).status())
                    .as("it logs out")
                    .isEqualTo(204);
            assertThat(asAdmin(token, "GET", "/api/v1/admin/me", null).status()).isEqualTo(401);
        } finally {
            assertThat(send("DELETE", "/api/v1/admin/users/" + adminId).status())
                    .isEqualTo(204);
        }
        assertThat(send("DELETE", "/api/v1/tenants/scope-a").status()).isEqualTo(204);
        send("DELETE", "/api/v1/auth/credentials/" + otherId);
        send("DELETE", "/api/v1/auth/credentials/" + global.body().path("id").asLong());
        assertThat(send("DELETE", "/api/v1/tenants/scope-b").status()).isEqualTo(204);
    }

    @Test
    void admin_users_are_validated_and_the_last_cluster_admin_stays() throws Exception {
        assertThat(sendJson("POST", "/api/v1/admin/users", Map.of("password", PASSWORD))
                        .status())
                .isEqualTo(400);
        Response weak = sendJson("POST", "/api/v1/admin/users", Map.of("username", "scope-weak", "password", ""));
        assertThat(weak.status()).isEqualTo(400);
        assertThat(weak.body().path("error").asString()).contains("password must not be empty");
        Response noTenant = sendJson(
                "POST",
                "/api/v1/admin/users",
                Map.of("username", "scope-none", "password", PASSWORD, "tenant", "no-such-tenant"));
        assertThat(noTenant.status()).isEqualTo(400);
        assertThat(noTenant.body().path("error").asString()).contains("no tenant 'no-such-tenant'");
        Response taken = sendJson("POST", "/api/v1/admin/users", Map.of("username", ADMIN_USER, "password", PASSWORD));
        assertThat(taken.status()).isEqualTo(409);

        Response second =
                sendJson("POST", "/api/v1/admin/users", Map.of("username", "scope-second", "password", PASSWORD));
        assertThat(second.status()).as("%s", second.body()).isEqualTo(201);
        assertThat(second.body().path("tenant").isNull()).isTrue();
        long secondId = second.body().path("id").asLong();
        String secondToken = tokenOf("scope-second", PASSWORD);
        Response users = asAdmin(secondToken, "GET", "/api/v1/admin/users", null);
        assertThat(users.status()).as("an admin of the whole cluster").isEqualTo(200);
        assertThat(users.body().toString()).contains("scope-second").contains("\"" + ADMIN_USER + "\"");

        long firstId = jdbc.sql("SELECT id FROM admin_users WHERE username = :u")
                .param("u", ADMIN_USER)
                .query(Long.class)
                .single();
        assertThat(asAdmin(secondToken, "DELETE", "/api/v1/admin/users/" + secondId, null)
                        .status())
                .as("deleting itself is allowed while another cluster admin remains")
                .isEqualTo(204);
        assertThat(asAdmin(secondToken, "GET", "/api/v1/admin/me", null).status())
                .as("its tokens went with it")
                .isEqualTo(401);
        Response last = send("DELETE", "/api/v1/admin/users/" + firstId);
        assertThat(last.status()).isEqualTo(409);
        assertThat(last.body().path("error").asString()).contains("last admin of the whole cluster");
        assertThat(send("DELETE", "/api/v1/admin/users/" + secondId).status()).isEqualTo(404);
    }
}
