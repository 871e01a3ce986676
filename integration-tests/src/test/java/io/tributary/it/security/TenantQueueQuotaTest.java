package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A tenant's queued-message quota on the shared cluster: an offline persistent session of the tenant keeps at most
 * {@code maxQueuedMessages} messages (the cluster's full policy, drop-oldest, keeps the latest), while a session of
 * another tenant without the quota keeps all of the same traffic (the global limit is far above it).
 */
@ExtendWith(LogsOnFailure.class)
class TenantQueueQuotaTest {

    private static final String PASSWORD = "pw-queueq";
    private static final int QUOTA = 3;
    private static final int SENT = 8;

    private static TributaryCluster cluster;
    private static AuthApi api;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
        api = new AuthApi(cluster.sessionApiUrl());
    }

    private static void connect(Mqtt5BlockingClient client, String user, boolean clean) {
        client.connectWith()
                .cleanStart(clean)
                .sessionExpiryInterval(600)
                .simpleAuth()
                .username(user)
                .password(PASSWORD.getBytes(StandardCharsets.UTF_8))
                .applySimpleAuth()
                .send();
    }

    /** Subscribes a persistent session of {@code user}, goes offline, has {@code SENT} messages published to it. */
    private static String offlineWithTraffic(String user) throws Exception {
        String clientId = Clients.id("qq");
        Mqtt5BlockingClient subscriber = Clients.hive5(cluster.mqttPort(0), clientId);
        connect(subscriber, user, true);
        subscriber.subscribeWith().topicFilter("q/#").qos(MqttQos.AT_LEAST_ONCE).send();
        subscriber.disconnect();
        // Offline as far as the cluster knows: a message routed while the node still had the connection would be
        // sent on it, stay unacknowledged and so be kept (and re-sent) beside the queue's latest QUOTA.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (api.session(clientId).path("session").path("connected").asBoolean(true)) {
            assertThat(System.nanoTime()).as("session %s offline", clientId).isLessThan(deadline);
            Thread.sleep(100);
        }
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(1), Clients.id("qp"));
        connect(publisher, user, true);
        for (int i = 0; i < SENT; i++) {
            publisher
                    .publishWith()
                    .topic("q/1")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload(("m" + i).getBytes(StandardCharsets.UTF_8))
                    .send();
        }
        publisher.disconnect();
        return clientId;
    }

    private static List<String> backOnline(String clientId, String user) throws Exception {
        Mqtt5BlockingClient back = Clients.hive5(cluster.mqttPort(1), clientId);
        List<String> got = new ArrayList<>();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = back.publishes(MqttGlobalPublishFilter.ALL)) {
            connect(back, user, false);
            Optional<Mqtt5Publish> next;
            while ((next = in.receive(3, TimeUnit.SECONDS)).isPresent()) {
                got.add(new String(next.get().getPayloadAsBytes(), StandardCharsets.UTF_8));
            }
        } finally {
            back.disconnect();
        }
        return got;
    }

    /**
     * The router's series of {@code name} with {@code tag} and {@code tenant} ({@code
     * tributary_routing_tenant_queue_quota}: the quota it applies); -1 when it has none.
     */
    private static double routerMetric(String name, String tag, String tenant) throws Exception {
        HttpResponse<String> scrape = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(cluster.routingManagementUrl() + "/actuator/prometheus"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return scrape.body()
                .lines()
                .filter(l -> l.startsWith(name) && l.contains(tag) && l.contains("tenant=\"" + tenant + "\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElse(-1);
    }

    @Test
    void an_offline_session_of_the_tenant_keeps_at_most_its_quota_another_tenants_keeps_all() throws Exception {
        String limited = Clients.id("qq-a");
        String other = Clients.id("qq-b");
        api.createTenantWithQuotas(limited, Map.of("maxQueuedMessages", QUOTA));
        api.createTenantWithQuotas(other, Map.of());
        String userA = Clients.id("uqa");
        String userB = Clients.id("uqb");
        api.create(AuthApi.credential(userA, PASSWORD, limited, List.of("#")));
        api.create(AuthApi.credential(userB, PASSWORD, other, List.of("#")));
        // The router learns the quota with its next poll of session-service (TRIBUTARY_TENANT_QUOTA_REFRESH, 5 s)
        // and shows what it applies per tenant.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (routerMetric("tributary_routing_tenant_queue_quota{", "", limited) != QUOTA) {
            assertThat(System.nanoTime()).as("the router applies the quota").isLessThan(deadline);
            Thread.sleep(100);
        }

        String a = offlineWithTraffic(userA);
        String b = offlineWithTraffic(userB);
        assertThat(backOnline(a, userA))
                .as("the latest %d, by drop-oldest", QUOTA)
                .containsExactly("m5", "m6", "m7");
        assertThat(backOnline(b, userB)).hasSize(SENT);
        assertThat(routerMetric("tributary_tenant_quota_refusals_total{", "quota=\"queued_messages\"", limited))
                .as("the drops counted for the tenant's quota on the router")
                .isEqualTo(SENT - QUOTA);
        assertThat(routerMetric("tributary_tenant_quota_refusals_total{", "quota=\"queued_messages\"", other))
                .isEqualTo(-1);
    }
}
