package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5PubAckException;
import com.hivemq.client.mqtt.mqtt5.message.publish.puback.Mqtt5PubAckReasonCode;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.PublishTopicTail;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A tenant's publish quota holds for the cluster, not per node: clients of one tenant on both nodes of the shared
 * cluster publish QoS 1 as fast as they can; beyond the tenant's rate they get PUBACK 0x97 Quota exceeded (MQTT 5
 * section 3.4.2.1) and stay connected, what is accepted in total stays within the quota per second (plus the lease
 * slack of docs/guarantees.md), nothing refused reaches Kafka, and another tenant's and an untenanted client's
 * publishes at the same time all go through.
 */
@ExtendWith(LogsOnFailure.class)
class TenantPublishQuotaTest {

    private static final String PASSWORD = "pw-pubq";
    /** PUBLISH packets per second of the whole tenant. */
    private static final int RATE = 20;
    /** A batch is a tenth of the quota; each node may be one batch ahead on credit, twice per window at worst. */
    private static final int SLACK_PER_WINDOW = 2 * 2 * Math.max(1, (RATE + 9) / 10);

    private static TributaryCluster cluster;
    private static AuthApi api;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
        api = new AuthApi(cluster.sessionApiUrl());
    }

    private static Mqtt5BlockingClient client(String user, int node) throws Exception {
        Mqtt5BlockingClient client = Clients.hive5(cluster.mqttPort(node), Clients.id("pq"));
        AuthenticationTest.connect(client, user, PASSWORD);
        return client;
    }

    /** The PUBACK's reason code of one QoS 1 PUBLISH. */
    private static Mqtt5PubAckReasonCode publish(Mqtt5BlockingClient client, String topic, String payload) {
        try {
            client.publishWith()
                    .topic(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload(payload.getBytes(StandardCharsets.UTF_8))
                    .send();
            return Mqtt5PubAckReasonCode.SUCCESS;
        } catch (Mqtt5PubAckException e) {
            return e.getMqttMessage().getReasonCode();
        }
    }

    /** Publishes until the node knows the tenant's quota (it polls session-service) and refuses one. */
    private static void awaitQuotaKnown(Mqtt5BlockingClient client) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (publish(client, "q/warmup", "w") == Mqtt5PubAckReasonCode.QUOTA_EXCEEDED) {
                return;
            }
        }
        throw new AssertionError("no publish refused within 30 s: the node does not know the quota");
    }

    @Test
    void clients_of_one_tenant_on_both_nodes_share_its_rate_and_nothing_refused_reaches_kafka() throws Exception {
        String limited = Clients.id("pq-a");
        String other = Clients.id("pq-b");
        api.createTenantWithQuotas(limited, Map.of("maxPublishRate", RATE));
        api.createTenantWithQuotas(other, Map.of("maxPublishRate", 100_000));
        String userA = Clients.id("upa");
        String userB = Clients.id("upb");
        api.create(AuthApi.credential(userA, PASSWORD, limited, List.of("#")));
        api.create(AuthApi.credential(userB, PASSWORD, other, List.of("#")));

        Mqtt5BlockingClient[] tenantClients = {client(userA, 0), client(userA, 1)};
        Mqtt5BlockingClient otherTenant = client(userB, 1);
        Mqtt5BlockingClient global = Clients.hive5(cluster.mqttPort(0), Clients.id("pq-g"));
        global.connect();
        for (Mqtt5BlockingClient c : tenantClients) {
            awaitQuotaKnown(c);
        }

        String measured = "q/measured";
        Set<String> accepted = ConcurrentHashMap.newKeySet();
        Set<String> refused = ConcurrentHashMap.newKeySet();
        List<Mqtt5PubAckReasonCode> otherCodes = new ArrayList<>();
        long measureNanos = TimeUnit.SECONDS.toNanos(4);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (KafkaConsumer<byte[], byte[]> kafka = PublishTopicTail.fromEnd(cluster.kafkaBootstrapServers())) {
            long start = System.nanoTime();
            List<Future<?>> flooders = new ArrayList<>();
            for (int node = 0; node < 2; node++) {
                Mqtt5BlockingClient c = tenantClients[node];
                String prefix = "n" + node + "-";
                flooders.add(threads.submit(() -> {
                    for (int i = 0; System.nanoTime() - start < measureNanos; i++) {
                        String payload = prefix + i;
                        Mqtt5PubAckReasonCode code = publish(c, measured, payload);
                        if (code == Mqtt5PubAckReasonCode.SUCCESS) {
                            accepted.add(payload);
                        } else {
                            assertThat(code).isEqualTo(Mqtt5PubAckReasonCode.QUOTA_EXCEEDED);
                            refused.add(payload);
                        }
                    }
                    return null;
                }));
            }
            // Meanwhile, another tenant and a client without a tenant: never refused.
            for (int i = 0; i < 100; i++) {
                otherCodes.add(publish(otherTenant, measured, "b-" + i));
                otherCodes.add(publish(global, "it/pubq/" + limited, "g-" + i));
            }
            for (Future<?> f : flooders) {
                f.get(30, TimeUnit.SECONDS);
            }
            double seconds = (System.nanoTime() - start) / 1e9;

            assertThat(otherCodes).hasSize(200).containsOnly(Mqtt5PubAckReasonCode.SUCCESS);
            assertThat(refused).as("refusals with 0x97 on both nodes").anyMatch(p -> p.startsWith("n0-"));
            assertThat(refused).anyMatch(p -> p.startsWith("n1-"));
            for (Mqtt5BlockingClient c : tenantClients) {
                assertThat(c.getState().isConnected())
                        .as("refused, not disconnected")
                        .isTrue();
            }
            // The measured time spans at most ceil(seconds) + 1 one-second windows of the counter.
            long windows = (long) Math.ceil(seconds) + 1;
            assertThat(accepted.size())
                    .as("accepted in %.1f s by both nodes together (%d refused)", seconds, refused.size())
                    .isBetween(RATE, (int) (windows * (RATE + SLACK_PER_WINDOW)));

            // Kafka holds exactly what was accepted: nothing refused was written.
            String key = "$tenant/" + limited + "/" + measured;
            Set<String> stored = new HashSet<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            long quietUntil = Long.MAX_VALUE;
            while (System.nanoTime() < Math.min(deadline, quietUntil)) {
                for (ConsumerRecord<byte[], byte[]> r : kafka.poll(Duration.ofMillis(200))) {
                    if (r.key() != null && key.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                        stored.add(new String(r.value(), StandardCharsets.UTF_8));
                    }
                }
                if (stored.containsAll(accepted) && quietUntil == Long.MAX_VALUE) {
                    quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                }
            }
            assertThat(stored).as("accepted publishes in Kafka").containsAll(accepted);
            assertThat(stored)
                    .as("nothing refused in Kafka")
                    .doesNotContainAnyElementsOf(refused)
                    .hasSize(accepted.size());
        } finally {
            threads.shutdownNow();
        }
        for (int node = 0; node < 2; node++) {
            assertThat(refusalsMetric(cluster.transportManagementUrl(node), limited))
                    .as("tributary_tenant_quota_refusals_total on node %d", node)
                    .isPositive();
        }
        for (Mqtt5BlockingClient c : tenantClients) {
            c.disconnect();
        }
        otherTenant.disconnect();
        global.disconnect();
    }

    /** {@code tributary_tenant_quota_refusals_total{quota="publish_rate",tenant}} of one transport node. */
    private static double refusalsMetric(String httpUrl, String tenant) throws Exception {
        HttpResponse<String> scrape = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(httpUrl + "/actuator/prometheus"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return scrape.body()
                .lines()
                .filter(l -> l.startsWith("tributary_tenant_quota_refusals_total{")
                        && l.contains("quota=\"publish_rate\"")
                        && l.contains("tenant=\"" + tenant + "\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
