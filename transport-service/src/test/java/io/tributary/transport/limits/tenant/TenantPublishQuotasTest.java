package io.tributary.transport.limits.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.tributary.common.session.LimitsApi;
import io.tributary.common.tenant.TenantNamespace;
import io.tributary.transport.connection.ClientCapabilities;
import io.tributary.transport.connection.ClientConnection;
import io.tributary.transport.limits.ClientLimits;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The node's tenant quotas over a counter that answers at once (as take.lua does, per tenant and quota, within one
 * window): a tenant's clients together get the quota, refusals are 0x97 counted per tenant and quota, clients of
 * other tenants and without a tenant are not limited, and the quotas follow what session-service says.
 */
class TenantPublishQuotasTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final Map<String, Long> used = new HashMap<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TenantPublishQuotas quotas = new TenantPublishQuotas(
            (tenant, quota) -> (limit, want, owed) -> {
                String key = tenant + "/" + quota;
                long u = used.getOrDefault(key, 0L);
                long granted = Math.max(0, Math.min(want, limit - u - owed));
                used.put(key, u + owed + granted);
                return CompletableFuture.completedFuture(new QuotaLease.Grant(granted, 900_000_000L));
            },
            registry,
            now::get);

    private static ClientConnection client(String id, String tenant) {
        EmbeddedChannel channel = new EmbeddedChannel();
        ClientConnection connection = new ClientConnection(
                channel,
                id,
                1,
                MqttVersion.MQTT_5,
                true,
                60,
                0,
                new ClientCapabilities(10, 268_435_460L, 0, true),
                10,
                null);
        connection.namespace(TenantNamespace.of(tenant));
        channel.attr(ClientConnection.KEY).set(connection);
        return connection;
    }

    private static int accepted(ClientConnection client, int attempts, int bytes, TenantPublishQuotas quotas) {
        int accepted = 0;
        for (int i = 0; i < attempts; i++) {
            if (quotas.check(client, bytes, false) == null) {
                accepted++;
            }
        }
        return accepted;
    }

    private double refusals(String tenant, String quota) {
        var counter = registry.find("tributary.tenant.quota.refusals")
                .tag("tenant", tenant)
                .tag("quota", quota)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void the_clients_of_a_tenant_share_its_rate_and_are_refused_with_0x97_beyond_it() {
        quotas.update(List.of(new LimitsApi.TenantPublishQuota("acme", 20, null)));
        ClientConnection a = client("a", "acme");
        ClientConnection b = client("b", "acme");
        int accepted = accepted(a, 15, 1, quotas) + accepted(b, 15, 1, quotas);
        assertThat(accepted).isEqualTo(20);
        ClientLimits.Refusal refusal = quotas.check(a, 1, false);
        assertThat(refusal).isNotNull();
        assertThat(refusal.code()).isEqualTo((byte) 0x97);
        assertThat(refusal.cause()).contains("acme").contains("20 publishes per second");
        assertThat(refusals("acme", TenantPublishQuotas.PUBLISH_RATE)).isEqualTo(11);

        now.addAndGet(900_000_000L);
        used.clear(); // the counter's next window
        assertThat(accepted(b, 30, 1, quotas)).as("a new window").isEqualTo(20);
    }

    @Test
    void payload_bytes_are_limited_apart_and_an_empty_payload_costs_none() {
        quotas.update(List.of(new LimitsApi.TenantPublishQuota("bytes-co", 100, 1000L)));
        ClientConnection c = client("c", "bytes-co");
        assertThat(accepted(c, 20, 100, quotas)).isEqualTo(10);
        assertThat(refusals("bytes-co", TenantPublishQuotas.PUBLISH_BYTES)).isEqualTo(10);
        assertThat(refusals("bytes-co", TenantPublishQuotas.PUBLISH_RATE)).isZero();
        assertThat(accepted(c, 5, 0, quotas))
                .as("an empty payload costs no bytes")
                .isEqualTo(5);
    }

    @Test
    void other_tenants_and_clients_without_a_tenant_are_not_limited() {
        quotas.update(List.of(new LimitsApi.TenantPublishQuota("acme", 0, null)));
        assertThat(accepted(client("a", "acme"), 5, 1, quotas)).isZero();
        assertThat(accepted(client("o", "other"), 500, 1, quotas)).isEqualTo(500);
        assertThat(accepted(client("g", null), 500, 1, quotas)).isEqualTo(500);
        assertThat(used).as("no counter for a quota of 0 or none").isEmpty();
    }

    @Test
    void a_changed_quota_holds_from_the_next_lease_and_a_removed_one_lifts_the_limit() {
        quotas.update(List.of(new LimitsApi.TenantPublishQuota("acme", 0, null)));
        ClientConnection a = client("a", "acme");
        assertThat(accepted(a, 5, 1, quotas)).isZero();
        quotas.update(List.of(new LimitsApi.TenantPublishQuota("acme", 30, null)));
        assertThat(accepted(a, 50, 1, quotas)).isEqualTo(30);
        quotas.update(List.of());
        assertThat(quotas.tenants()).isZero();
        assertThat(accepted(a, 50, 1, quotas)).isEqualTo(50);
    }

    @Test
    void a_tenant_listed_as_retained_full_has_retained_payloads_refused_before_its_rate_is_spent() {
        quotas.update(List.of(
                new LimitsApi.TenantPublishQuota("acme", 10, null, true),
                new LimitsApi.TenantPublishQuota("roomy", null, null, false)));
        ClientConnection a = client("a", "acme");
        for (int i = 0; i < 5; i++) {
            ClientLimits.Refusal refusal = quotas.check(a, 10, true);
            assertThat(refusal).isNotNull();
            assertThat(refusal.code()).isEqualTo((byte) 0x97);
            assertThat(refusal.cause()).contains("acme").contains("retained");
        }
        assertThat(refusals("acme", TenantPublishQuotas.RETAINED)).isEqualTo(5);
        assertThat(used).as("a refused retained PUBLISH takes no rate token").isEmpty();
        assertThat(quotas.check(a, 0, true)).as("a deletion passes").isNull();
        assertThat(quotas.check(a, 10, false)).as("not retained").isNull();
        assertThat(accepted(client("r", "roomy"), 50, 10, quotas)).isEqualTo(50);
        assertThat(quotas.check(client("r2", "roomy"), 10, true)).isNull();
        assertThat(quotas.check(client("g", null), 10, true)).isNull();

        quotas.update(List.of(new LimitsApi.TenantPublishQuota("acme", 10, null, false)));
        assertThat(quotas.retainedFull()).isZero();
        assertThat(quotas.check(a, 10, true)).as("room again").isNull();
    }
}
