package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.DisconnectApi;
import io.tributary.common.session.SessionApi;
import io.tributary.common.session.SubscribeApi;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A tenant's persistent-session, subscription and CONNECT-rate quotas (issue #17): each refuses what would go beyond
 * it with its reason, leaves what its clients hold already (a resumed session, a replaced subscription) and other
 * tenants alone, is shown with its usage on the admin API and counted in
 * {@code tributary_tenant_quota_refusals_total}. Real PostgreSQL, Redis and Kafka.
 */
@Order(3)
class TenantQuotaIntegrationTest extends ServiceTestBase {

    private static final String NODE = "node-quotas";

    /** A tenant with {@code quotas} and a credential {@code <tenant>-dev} / pw allowed everything in it. */
    private void tenant(String id, Map<String, Object> quotas) throws Exception {
        Map<String, Object> body = new HashMap<>(quotas);
        body.put("id", id);
        Response created = sendJson("POST", "/api/v1/tenants", body);
        assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
        Response credential = sendJson(
                "POST",
                "/api/v1/auth/credentials",
                Map.of(
                        "username",
                        id + "-dev",
                        "password",
                        "pw",
                        "tenant",
                        id,
                        "publish",
                        List.of("#"),
                        "subscribe",
                        List.of("#")));
        assertThat(credential.status()).as("%s", credential.body()).isEqualTo(201);
    }

    private Response connectAs(String tenant, String clientId, boolean clean, long expiry) throws Exception {
        return post(SessionApi.CONNECT, connectRequest(clientId, NODE, clean, expiry, tenant + "-dev", "pw", null));
    }

    private static long epoch(Response accepted) {
        assertThat(accepted.status()).as("%s", accepted.body()).isEqualTo(200);
        return accepted.body().path("epoch").asLong();
    }

    private Response subscribe(String clientId, long epoch, String... filters) throws Exception {
        List<SubscribeApi.Subscription> subs =
                java.util.Arrays.stream(filters).map(f -> sub(f, 1)).toList();
        Response subscribed =
                post(SessionApi.SUBSCRIBE, new SubscribeApi.SubscribeRequest(clientId, epoch, NODE, subs));
        assertThat(subscribed.status()).as("%s", subscribed.body()).isEqualTo(200);
        return subscribed;
    }

    private double refusals(String tenant, String quota) throws Exception {
        String scrape = scrape();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                        "tributary_tenant_quota_refusals_total\\{[^}]*quota=\"" + quota + "\"[^}]*tenant=\"" + tenant
                                + "\"[^}]*} ([0-9.]+)")
                .matcher(scrape);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    @Test
    void quotas_are_set_on_post_and_put_shown_with_their_usage_and_checked() throws Exception {
        Response created = sendJson(
                "POST",
                "/api/v1/tenants",
                Map.of("id", "q-crud", "maxSessions", 3, "maxSubscriptions", 4, "connectRate", 5));
        assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
        JsonNode body = created.body();
        assertThat(body.path("maxSessions").asInt()).isEqualTo(3);
        assertThat(body.path("maxSubscriptions").asInt()).isEqualTo(4);
        assertThat(body.path("connectRate").asInt()).isEqualTo(5);
        assertThat(body.path("sessions").asLong()).isZero();
        assertThat(body.path("subscriptions").asLong()).isZero();
        assertThat(body.path("maxConnections").isNull()).isTrue();

        Response replaced = sendJson("PUT", "/api/v1/tenants/q-crud", Map.of("maxSubscriptions", 7));
        assertThat(replaced.status()).as("%s", replaced.body()).isEqualTo(200);
        assertThat(replaced.body().path("maxSubscriptions").asInt()).isEqualTo(7);
        assertThat(replaced.body().path("maxSessions").isNull())
                .as("PUT replaces: a quota left out is no limit")
                .isTrue();
        assertThat(replaced.body().path("connectRate").isNull()).isTrue();
        for (String quota : List.of("maxSessions", "maxSubscriptions", "connectRate")) {
            Response negative = sendJson("POST", "/api/v1/tenants", Map.of("id", "q-neg", quota, -1));
            assertThat(negative.status()).isEqualTo(400);
            assertThat(negative.body().path("error").asString()).contains(quota);
        }
    }

    @Test
    void the_session_quota_refuses_new_persistent_sessions_and_never_a_resumed_one() throws Exception {
        tenant("q-sessions", Map.of("maxSessions", 2));
        epoch(connectAs("q-sessions", "qs-1", false, 3600));
        long second = epoch(connectAs("q-sessions", "qs-2", false, NEVER));

        Response third = connectAs("q-sessions", "qs-3", false, 3600);
        assertThat(third.status()).isEqualTo(SessionApi.CONNECT_REFUSED_STATUS);
        assertThat(third.body().path("reason").asString()).isEqualTo("QUOTA_EXCEEDED");
        assertThat(third.body().path("message").asString())
                .contains("q-sessions")
                .contains("2 persistent session");
        // No session stored for the refused client.
        assertThat(jdbc.sql("SELECT count(*) FROM sessions WHERE client_id = 'qs-3'")
                        .query(Long.class)
                        .single())
                .isZero();

        // A session that ends with its connection is not counted; a stored one is resumed, or restarted clean,
        // whether its client is connected (a takeover) or not.
        epoch(connectAs("q-sessions", "qs-3", true, 0));
        assertThat(connectAs("q-sessions", "qs-1", false, 3600)
                        .body()
                        .path("sessionPresent")
                        .asBoolean())
                .isTrue();
        Response out = post(SessionApi.DISCONNECT, new DisconnectApi.DisconnectRequest("qs-2", second, NODE, NEVER));
        assertThat(out.status()).as("%s", out.body()).isLessThan(300);
        Response resumed = connectAs("q-sessions", "qs-2", false, NEVER);
        assertThat(resumed.status()).as("%s", resumed.body()).isEqualTo(200);
        assertThat(resumed.body().path("sessionPresent").asBoolean()).isTrue();
        epoch(connectAs("q-sessions", "qs-2", true, 3600));
        // A non-persistent client becoming persistent is a new persistent session.
        assertThat(connectAs("q-sessions", "qs-3", false, 60)
                        .body()
                        .path("reason")
                        .asString())
                .isEqualTo("QUOTA_EXCEEDED");

        // In one batch, arrival order decides.
        sendJson("PUT", "/api/v1/tenants/q-sessions", Map.of("maxSessions", 3));
        Response batch = post(
                SessionApi.CONNECT_BATCH,
                new ConnectApi.ConnectBatch(List.of(
                        connectRequest("qs-4", NODE, false, 3600, "q-sessions-dev", "pw", null),
                        connectRequest("qs-5", NODE, false, 3600, "q-sessions-dev", "pw", null))));
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

        Response shown = get("/api/v1/tenants/q-sessions");
        assertThat(shown.body().path("maxSessions").asInt()).isEqualTo(3);
        assertThat(shown.body().path("sessions").asLong()).isEqualTo(3);
        // The global namespace is not counted against any tenant.
        assertThat(post(SessionApi.CONNECT, connectRequest("qs-global", NODE, false, NEVER, null, null, null))
                        .status())
                .isEqualTo(200);
        assertThat(refusals("q-sessions", "sessions")).isEqualTo(3.0);
    }

    @Test
    void the_subscription_quota_refuses_each_filter_beyond_it_and_never_a_replacement() throws Exception {
        tenant("q-subs", Map.of("maxSubscriptions", 3));
        String p = "$tenant/q-subs/";
        long a = epoch(connectAs("q-subs", "qb-a", true, 0));
        long b = epoch(connectAs("q-subs", "qb-b", true, 3600));

        // One packet: the filters up to the quota are granted, the ones beyond get 0x97, one by one.
        assertThat(codes(subscribe("qb-a", a, p + "a/1", p + "a/2", p + "a/3", p + "a/4")
                        .body()))
                .containsExactly(1, 1, 1, 0x97);
        // Replacing one held is no new subscription, a filter named twice in a packet is one, an invalid one is
        // refused for what it is; the tenant's other client counts against the same quota.
        assertThat(codes(subscribe("qb-a", a, p + "a/1", p + "a/1", p + "a/#/x").body()))
                .containsExactly(1, 1, 0x8F);
        assertThat(codes(subscribe("qb-b", b, p + "b/1", p + "a/1").body())).containsExactly(0x97, 0x97);
        assertThat(jdbc.sql("SELECT count(*) FROM subscriptions WHERE client_id = 'qb-b'")
                        .query(Long.class)
                        .single())
                .isZero();

        // An UNSUBSCRIBE frees a place.
        assertThat(unsubscribeBatch(new SubscribeApi.UnsubscribeRequest("qb-a", a, List.of(p + "a/2")))
                        .get(0)
                        .done()
                        .reasonCodes())
                .containsExactly(0);
        assertThat(codes(subscribe("qb-b", b, p + "b/1", p + "b/2").body())).containsExactly(1, 0x97);

        Response shown = get("/api/v1/tenants/q-subs");
        assertThat(shown.body().path("maxSubscriptions").asInt()).isEqualTo(3);
        assertThat(shown.body().path("subscriptions").asLong()).isEqualTo(3);
        // Another namespace is not counted against it.
        long global = epoch(post(SessionApi.CONNECT, connectRequest("qb-global", NODE, true, 0, null, null, null)));
        assertThat(codes(subscribe("qb-global", global, "g/1", "g/2", "g/3", "g/4")
                        .body()))
                .containsExactly(1, 1, 1, 1);
        assertThat(refusals("q-subs", "subscriptions")).isEqualTo(4.0);
    }

    @Test
    void the_connect_rate_refuses_connects_beyond_it_per_second_with_its_own_reason() throws Exception {
        tenant("q-rate", Map.of("connectRate", 2));
        // One batch is taken from one window: the first two are admitted, the others refused.
        Response batch = post(
                SessionApi.CONNECT_BATCH,
                new ConnectApi.ConnectBatch(List.of(
                        connectRequest("qr-1", NODE, true, 0, "q-rate-dev", "pw", null),
                        connectRequest("qr-2", NODE, true, 0, "q-rate-dev", "pw", null),
                        connectRequest("qr-3", NODE, true, 0, "q-rate-dev", "pw", null),
                        connectRequest("qr-4", NODE, true, 0, "q-rate-dev", "pw", null))));
        assertThat(batch.status()).as("%s", batch.body()).isEqualTo(200);
        JsonNode outcomes = batch.body().path("outcomes");
        assertThat(outcomes.get(0).path("accepted").isObject())
                .as("%s", outcomes)
                .isTrue();
        assertThat(outcomes.get(1).path("accepted").isObject())
                .as("%s", outcomes)
                .isTrue();
        for (int i = 2; i < 4; i++) {
            assertThat(outcomes.get(i).path("refused").path("reason").asString())
                    .isEqualTo("CONNECTION_RATE_EXCEEDED");
            assertThat(outcomes.get(i).path("refused").path("message").asString())
                    .contains("q-rate")
                    .contains("2 client(s) per second");
        }

        // A rate of 0 admits none, a single CONNECT included; no rate, any number.
        sendJson("PUT", "/api/v1/tenants/q-rate", Map.of("connectRate", 0));
        Response single = connectAs("q-rate", "qr-5", true, 0);
        assertThat(single.status()).isEqualTo(SessionApi.CONNECT_REFUSED_STATUS);
        assertThat(single.body().path("reason").asString()).isEqualTo("CONNECTION_RATE_EXCEEDED");
        assertThat(get("/api/v1/tenants/q-rate").body().path("connectRate").asInt())
                .isZero();
        assertThat(refusals("q-rate", "connect_rate")).isEqualTo(3.0);
        sendJson("PUT", "/api/v1/tenants/q-rate", Map.of());
        for (int i = 6; i < 10; i++) {
            epoch(connectAs("q-rate", "qr-" + i, true, 0));
        }
    }

    @Test
    void the_queued_message_quota_is_validated_shown_and_listed_for_the_routers() throws Exception {
        Response created = sendJson("POST", "/api/v1/tenants", Map.of("id", "q-queue", "maxQueuedMessages", 50));
        assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
        assertThat(created.body().path("maxQueuedMessages").asInt()).isEqualTo(50);
        Response zero = sendJson("PUT", "/api/v1/tenants/q-queue", Map.of("maxQueuedMessages", 0));
        assertThat(zero.status()).isEqualTo(400);
        assertThat(zero.body().path("error").asString())
                .contains("maxQueuedMessages")
                .contains("at least 1");
        JsonNode listed = null;
        for (JsonNode t : get(SessionApi.TENANT_PUBLISH_QUOTAS).body().path("tenants")) {
            if (t.path("tenant").asString().equals("q-queue")) {
                listed = t;
            }
        }
        assertThat(listed).as("listed for the routers").isNotNull();
        assertThat(listed.path("maxQueuedMessages").asInt()).isEqualTo(50);
        assertThat(listed.path("maxPublishRate").isNull()).isTrue();
    }
}
