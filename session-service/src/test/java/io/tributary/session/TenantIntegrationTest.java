package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Tenants over the admin API, and what a tenant's credential changes at CONNECT: the tenant comes back to the node,
 * the will is stored in the tenant's namespace, a resumed session keeps its (internal) subscriptions under the
 * credential's ACL, and a client id whose session belongs to another namespace is refused. Real PostgreSQL, Redis and
 * Kafka, like the other integration tests of this module.
 */
@Order(3)
class TenantIntegrationTest extends ServiceTestBase {

    private Response connect(String clientId, String username, String password, ConnectApi.Will will, boolean clean)
            throws Exception {
        return post(
                SessionApi.CONNECT, connectRequest(clientId, "node-tenants", clean, 3600, username, password, will));
    }

    @Test
    void tenants_are_created_listed_read_and_deleted_with_400_404_409() throws Exception {
        Response created = sendJson("POST", "/api/v1/tenants", Map.of("id", "crud-1", "description", "first"));
        assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
        assertThat(created.body().path("id").asString()).isEqualTo("crud-1");
        assertThat(created.body().path("credentials").asLong()).isZero();
        assertThat(created.body().path("maxConnections").isNull())
                .as("no quota given: none, not 0")
                .isTrue();
        assertThat(created.body().path("createdAt").isMissingNode()).isFalse();

        Response duplicate = sendJson("POST", "/api/v1/tenants", Map.of("id", "crud-1"));
        assertThat(duplicate.status()).isEqualTo(409);
        assertThat(duplicate.body().path("error").asString()).contains("exists");
        Response upper = sendJson("POST", "/api/v1/tenants", Map.of("id", "Crud"));
        assertThat(upper.status()).isEqualTo(400);
        assertThat(upper.body().path("error").asString()).contains("lower-case");
        assertThat(sendJson("POST", "/api/v1/tenants", Map.of("description", "no id"))
                        .status())
                .isEqualTo(400);

        assertThat(get("/api/v1/tenants/crud-1").body().path("description").asString())
                .isEqualTo("first");
        assertThat(get("/api/v1/tenants/nobody").status()).isEqualTo(404);
        assertThat(get("/api/v1/tenants?size=1000").body().path("items").toString())
                .contains("crud-1");
        assertThat(get("/api/v1/tenants?size=0").status()).isEqualTo(400);

        // A credential names an existing tenant only; while it has one, the tenant stays.
        Response unknownTenant = sendJson(
                "POST", "/api/v1/auth/credentials", Map.of("username", "crud-u0", "password", "pw", "tenant", "none"));
        assertThat(unknownTenant.status()).isEqualTo(400);
        assertThat(unknownTenant.body().path("error").asString()).contains("no tenant 'none'");
        Response credential = sendJson(
                "POST",
                "/api/v1/auth/credentials",
                Map.of("username", "crud-u1", "password", "pw", "tenant", "crud-1"));
        assertThat(credential.status()).as("%s", credential.body()).isEqualTo(201);
        assertThat(credential.body().path("tenant").asString()).isEqualTo("crud-1");
        assertThat(get("/api/v1/tenants/crud-1").body().path("credentials").asLong())
                .isEqualTo(1);
        Response inUse = send("DELETE", "/api/v1/tenants/crud-1");
        assertThat(inUse.status()).isEqualTo(409);
        assertThat(inUse.body().path("error").asString()).contains("1 credential");

        assertThat(send(
                                "DELETE",
                                "/api/v1/auth/credentials/"
                                        + credential.body().path("id").asLong())
                        .status())
                .isEqualTo(204);
        assertThat(send("DELETE", "/api/v1/tenants/crud-1").status()).isEqualTo(204);
        assertThat(send("DELETE", "/api/v1/tenants/crud-1").status()).isEqualTo(404);
    }

    @Test
    void a_tenants_client_gets_its_tenant_its_will_is_mounted_and_its_client_id_is_its_own() throws Exception {
        assertThat(sendJson("POST", "/api/v1/tenants", Map.of("id", "meter-co")).status())
                .isEqualTo(201);
        assertThat(sendJson(
                                "POST",
                                "/api/v1/auth/credentials",
                                Map.of(
                                        "username", "meter-co-dev",
                                        "password", "pw",
                                        "tenant", "meter-co",
                                        "publish", List.of("meters/#"),
                                        "subscribe", List.of("meters/#")))
                        .status())
                .isEqualTo(201);
        ConnectApi.Will will = new ConnectApi.Will("meters/dev-1/status", utf8("gone"), 1, false, 0, null);
        Response accepted = connect("tenant-dev-1", "meter-co-dev", "pw", will, false);
        assertThat(accepted.status()).as("%s", accepted.body()).isEqualTo(200);
        assertThat(accepted.body().path("tenant").asString()).isEqualTo("meter-co");
        // The ACL speaks the client's names; the stored will is in the tenant's namespace.
        assertThat(jdbc.sql("SELECT topic FROM wills WHERE client_id = 'tenant-dev-1'")
                        .query(String.class)
                        .single())
                .isEqualTo("$tenant/meter-co/meters/dev-1/status");
        assertThat(jdbc.sql("SELECT tenant_id FROM sessions WHERE client_id = 'tenant-dev-1'")
                        .query(String.class)
                        .single())
                .isEqualTo("meter-co");

        // The node subscribes under the internal name; a resumed session gets it back (the ACL checked on the
        // client's name, not dropped for the prefix).
        long epoch = accepted.body().path("epoch").asLong();
        Response subscribed = post(
                SessionApi.SUBSCRIBE,
                new SubscribeApi.SubscribeRequest(
                        "tenant-dev-1", epoch, "node-tenants", List.of(sub("$tenant/meter-co/meters/+", 1))));
        assertThat(subscribed.status()).as("%s", subscribed.body()).isEqualTo(200);
        ConnectApi.Will delayed = new ConnectApi.Will("meters/dev-1/status", utf8("gone"), 1, false, 600, null);
        Response resumed = connect("tenant-dev-1", "meter-co-dev", "pw", delayed, false);
        assertThat(resumed.status()).as("%s", resumed.body()).isEqualTo(200);
        assertThat(resumed.body().path("subscriptions").toString()).contains("$tenant/meter-co/meters/+");
        // The connection drops: its will is pending for 600 s.
        assertThat(post(
                                SessionApi.DISCONNECT,
                                new DisconnectApi.DisconnectRequest(
                                        "tenant-dev-1",
                                        resumed.body().path("epoch").asLong(),
                                        "node-tenants",
                                        3600,
                                        DisconnectApi.WillOutcome.SCHEDULE))
                        .status())
                .isEqualTo(200);

        // Another namespace may not resume or take over the session: its queue and subscriptions are this tenant's.
        Response anonymous = connect("tenant-dev-1", null, null, null, false);
        assertThat(anonymous.status()).isEqualTo(SessionApi.CONNECT_REFUSED_STATUS);
        assertThat(anonymous.body().path("reason").asString()).isEqualTo("NOT_AUTHORIZED");
        // Told no more than any client that may not connect: neither whose session it is nor that it exists in
        // another namespace (issue 34, the refusal was an existence oracle).
        assertThat(anonymous.body().path("message").asString()).isEqualTo("not authorized");
        Response otherTenant = connectAsOtherTenant("tenant-dev-1");
        assertThat(otherTenant.status()).isEqualTo(SessionApi.CONNECT_REFUSED_STATUS);
        assertThat(otherTenant.body().path("reason").asString()).isEqualTo("NOT_AUTHORIZED");
        assertThat(otherTenant.body().path("message").asString()).isEqualTo("not authorized");
        assertThat(jdbc.sql("SELECT tenant_id FROM sessions WHERE client_id = 'tenant-dev-1'")
                        .query(String.class)
                        .single())
                .isEqualTo("meter-co");
        // Nor cancel the session's pending will: the CONNECTs refused left it as it was.
        assertThat(jdbc.sql("SELECT will_publish_at IS NOT NULL FROM wills WHERE client_id = 'tenant-dev-1'")
                        .query(Boolean.class)
                        .list())
                .containsExactly(true);

        // Clients without tenants are as before: no tenant in the answer, names as sent.
        Response global = connect("global-dev-1", null, null, null, true);
        assertThat(global.status()).isEqualTo(200);
        assertThat(global.body().path("tenant").isNull()).isTrue();
    }

    @Test
    void a_tenants_connection_quota_refuses_new_clients_beyond_it_keeps_reconnects_and_frees_places() throws Exception {
        Response created = sendJson("POST", "/api/v1/tenants", Map.of("id", "quota-co", "maxConnections", 2));
        assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
        assertThat(created.body().path("maxConnections").asInt()).isEqualTo(2);
        assertThat(sendJson("POST", "/api/v1/tenants", Map.of("id", "quota-neg", "maxConnections", -1))
                        .status())
                .isEqualTo(400);
        assertThat(sendJson(
                                "POST",
                                "/api/v1/auth/credentials",
                                Map.of("username", "quota-dev", "password", "pw", "tenant", "quota-co"))
                        .status())
                .isEqualTo(201);

        Response first = connect("quota-1", "quota-dev", "pw", null, true);
        Response second = connect("quota-2", "quota-dev", "pw", null, true);
        assertThat(first.status()).as("%s", first.body()).isEqualTo(200);
        assertThat(second.status()).as("%s", second.body()).isEqualTo(200);
        Response third = connect("quota-3", "quota-dev", "pw", null, true);
        assertThat(third.status()).isEqualTo(SessionApi.CONNECT_REFUSED_STATUS);
        assertThat(third.body().path("reason").asString()).isEqualTo("QUOTA_EXCEEDED");
        assertThat(third.body().path("message").asString()).contains("quota-co").contains("2 connection");
        assertThat(get("/api/v1/tenants/quota-co").body().path("connections").asLong())
                .isEqualTo(2);

        // At the limit, a connected client coming back (a takeover) keeps its place.
        Response again = connect("quota-2", "quota-dev", "pw", null, true);
        assertThat(again.status()).as("%s", again.body()).isEqualTo(200);

        // In one batch, arrival order decides: one place, two new clients, the first gets it.
        Response out = post(
                SessionApi.DISCONNECT,
                new DisconnectApi.DisconnectRequest(
                        "quota-1", first.body().path("epoch").asLong(), "node-tenants", 0));
        assertThat(out.status()).as("%s", out.body()).isLessThan(300);
        Response batch = post(
                SessionApi.CONNECT_BATCH,
                new ConnectApi.ConnectBatch(List.of(batchRequest("quota-4"), batchRequest("quota-5"))));
        assertThat(batch.status()).as("%s", batch.body()).isEqualTo(200);
        assertThat(batch.body().path("outcomes").get(0).path("accepted").isObject())
                .as("%s", batch.body())
                .isTrue();
        assertThat(batch.body()
                        .path("outcomes")
                        .get(1)
                        .path("refused")
                        .path("reason")
                        .asString())
                .isEqualTo("QUOTA_EXCEEDED");

        // A raised quota admits at once; a deployment's other namespaces never counted.
        assertThat(sendJson("PUT", "/api/v1/tenants/quota-co", Map.of("maxConnections", 3))
                        .status())
                .isEqualTo(200);
        assertThat(connect("quota-5", "quota-dev", "pw", null, true).status()).isEqualTo(200);
        assertThat(sendJson("PUT", "/api/v1/tenants/quota-co", Map.of("id", "other"))
                        .status())
                .isEqualTo(400);
        assertThat(sendJson("PUT", "/api/v1/tenants/nobody", Map.of()).status()).isEqualTo(404);
        assertThat(connect("quota-global", null, null, null, true).status()).isEqualTo(200);
        String scrape = scrape();
        assertThat(scrape)
                .containsPattern(
                        "tributary_tenant_quota_refusals_total\\{[^}]*quota=\"connections\"[^}]*tenant=\"quota-co\"[^}]*} 2.0");
    }

    /** A CONNECT of {@code clientId} by a device of another tenant, alone and in a batch: both refusals. */
    private Response connectAsOtherTenant(String clientId) throws Exception {
        assertThat(sendJson("POST", "/api/v1/tenants", Map.of("id", "other-co")).status())
                .isEqualTo(201);
        assertThat(sendJson(
                                "POST",
                                "/api/v1/auth/credentials",
                                Map.of("username", "other-co-dev", "password", "pw", "tenant", "other-co"))
                        .status())
                .isEqualTo(201);
        Response batch = post(
                SessionApi.CONNECT_BATCH,
                new ConnectApi.ConnectBatch(
                        List.of(connectRequest(clientId, "node-tenants", false, 3600, "other-co-dev", "pw", null))));
        assertThat(batch.status()).as("%s", batch.body()).isEqualTo(200);
        var refused = batch.body().path("outcomes").get(0).path("refused");
        assertThat(refused.path("reason").asString()).as("%s", batch.body()).isEqualTo("NOT_AUTHORIZED");
        assertThat(refused.path("message").asString()).isEqualTo("not authorized");
        return connect(clientId, "other-co-dev", "pw", null, false);
    }

    private static ConnectApi.ConnectRequest batchRequest(String clientId) {
        return connectRequest(clientId, "node-tenants", true, 0, "quota-dev", "pw", null);
    }

    @Test
    void publish_quotas_are_set_shown_replaced_and_handed_to_transport_nodes() throws Exception {
        Response created = sendJson(
                "POST",
                "/api/v1/tenants",
                Map.of("id", "pubq-co", "maxPublishRate", 100, "maxPublishBytesRate", 50_000_000_000L));
        assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
        assertThat(created.body().path("maxPublishRate").asInt()).isEqualTo(100);
        assertThat(created.body().path("maxPublishBytesRate").asLong())
                .as("bytes per second beyond 2^31")
                .isEqualTo(50_000_000_000L);
        Response plain = sendJson("POST", "/api/v1/tenants", Map.of("id", "pubq-none"));
        assertThat(plain.body().path("maxPublishRate").isNull())
                .as("none, not 0")
                .isTrue();
        assertThat(plain.body().path("maxPublishBytesRate").isNull()).isTrue();
        Response negative = sendJson("POST", "/api/v1/tenants", Map.of("id", "pubq-neg", "maxPublishRate", -1));
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.body().path("error").asString()).contains("maxPublishRate");
        assertThat(sendJson("POST", "/api/v1/tenants", Map.of("id", "pubq-neg", "maxPublishBytesRate", -5))
                        .status())
                .isEqualTo(400);

        Response replaced =
                sendJson("PUT", "/api/v1/tenants/pubq-co", Map.of("maxPublishRate", 0, "description", "stopped"));
        assertThat(replaced.status()).as("%s", replaced.body()).isEqualTo(200);
        assertThat(replaced.body().path("maxPublishRate").asInt()).isZero();
        assertThat(replaced.body().path("maxPublishBytesRate").isNull())
                .as("PUT replaces: left out is no limit")
                .isTrue();
        assertThat(get("/api/v1/tenants/pubq-co").body().path("maxPublishRate").asInt())
                .isZero();

        Response quotas = get(SessionApi.TENANT_PUBLISH_QUOTAS);
        assertThat(quotas.status()).isEqualTo(200);
        assertThat(quotas.body().path("tenants").toString())
                .contains(
                        "{\"tenant\":\"pubq-co\",\"maxPublishRate\":0,\"maxPublishBytesRate\":null,\"retainedFull\":false,\"maxQueuedMessages\":null,\"maxDeliveryBytesRate\":null}")
                .doesNotContain("pubq-none");
    }

    @Test
    void delivery_bytes_quota_is_set_shown_replaced_and_handed_to_transport_nodes() throws Exception {
        Response created =
                sendJson("POST", "/api/v1/tenants", Map.of("id", "outq-co", "maxDeliveryBytesRate", 50_000_000_000L));
        assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
        assertThat(created.body().path("maxDeliveryBytesRate").asLong())
                .as("bytes per second beyond 2^31")
                .isEqualTo(50_000_000_000L);
        assertThat(get("/api/v1/tenants/outq-co")
                        .body()
                        .path("maxDeliveryBytesRate")
                        .asLong())
                .isEqualTo(50_000_000_000L);
        Response plain = sendJson("POST", "/api/v1/tenants", Map.of("id", "outq-none"));
        assertThat(plain.body().path("maxDeliveryBytesRate").isNull())
                .as("none, not 0")
                .isTrue();
        Response negative = sendJson("POST", "/api/v1/tenants", Map.of("id", "outq-neg", "maxDeliveryBytesRate", -5));
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.body().path("error").asString()).contains("maxDeliveryBytesRate must not be negative");

        Response replaced = sendJson("PUT", "/api/v1/tenants/outq-co", Map.of("maxDeliveryBytesRate", 2000));
        assertThat(replaced.status()).as("%s", replaced.body()).isEqualTo(200);
        assertThat(replaced.body().path("maxDeliveryBytesRate").asLong()).isEqualTo(2000);
        assertThat(sendJson("PUT", "/api/v1/tenants/outq-co", Map.of("maxDeliveryBytesRate", -1))
                        .status())
                .isEqualTo(400);

        Response quotas = get(SessionApi.TENANT_PUBLISH_QUOTAS);
        assertThat(quotas.status()).isEqualTo(200);
        assertThat(quotas.body().path("tenants").toString())
                .as("a tenant with only a delivery quota is on the transport nodes' list")
                .contains(
                        "{\"tenant\":\"outq-co\",\"maxPublishRate\":null,\"maxPublishBytesRate\":null,\"retainedFull\":false,\"maxQueuedMessages\":null,\"maxDeliveryBytesRate\":2000}")
                .doesNotContain("outq-none");
    }
}
