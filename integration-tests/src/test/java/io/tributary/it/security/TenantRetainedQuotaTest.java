package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5PubAckException;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A tenant's retained-message quota on the shared two-node cluster: once the tenant holds its quota, a retained QoS
 * 1 PUBLISH with a payload gets PUBACK 0x97 Quota exceeded on both nodes (as soon as they have polled the tenant's
 * state) and nothing refused reaches Kafka; what slipped through before a node knew is not stored (the store is
 * exact), so a new subscriber gets exactly the quota's messages. A deletion (empty payload) always passes and makes
 * room again.
 */
@ExtendWith(LogsOnFailure.class)
class TenantRetainedQuotaTest {

    private static final String PASSWORD = "pw-retq";
    private static final int QUOTA = 2;

    private static TributaryCluster cluster;
    private static AuthApi api;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
        api = new AuthApi(cluster.sessionApiUrl());
    }

    private static Mqtt5BlockingClient client(String user, int node) throws Exception {
        Mqtt5BlockingClient client = Clients.hive5(cluster.mqttPort(node), Clients.id("rq"));
        AuthenticationTest.connect(client, user, PASSWORD);
        return client;
    }

    /** The PUBACK's reason code of one retained QoS 1 PUBLISH. */
    private static Mqtt5PubAckReasonCode retain(Mqtt5BlockingClient client, String topic, String payload) {
        try {
            client.publishWith()
                    .topic(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .retain(true)
                    .payload(payload.getBytes(StandardCharsets.UTF_8))
                    .send();
            return Mqtt5PubAckReasonCode.SUCCESS;
        } catch (Mqtt5PubAckException e) {
            return e.getMqttMessage().getReasonCode();
        }
    }

    /** The retained messages a new subscriber to {@code filter} gets, topic → payload. */
    private static Map<String, String> retainedFor(String user, String filter) throws Exception {
        Mqtt5BlockingClient subscriber = client(user, 1);
        Map<String, String> got = new HashMap<>();
        try (Mqtt5BlockingClient.Mqtt5Publishes publishes = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(filter)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            Optional<Mqtt5Publish> next = publishes.receive(5, TimeUnit.SECONDS);
            while (next.isPresent()) {
                if (next.get().isRetain()) {
                    got.put(
                            next.get().getTopic().toString(),
                            new String(next.get().getPayloadAsBytes(), StandardCharsets.UTF_8));
                }
                next = publishes.receive(1, TimeUnit.SECONDS);
            }
        }
        subscriber.disconnect();
        return got;
    }

    @Test
    void a_full_tenant_gets_0x97_on_both_nodes_nothing_refused_reaches_kafka_and_the_store_holds_the_quota()
            throws Exception {
        String tenant = Clients.id("rq-t");
        String user = Clients.id("urq");
        api.createTenantWithQuotas(tenant, Map.of("maxRetained", QUOTA));
        api.create(AuthApi.credential(user, PASSWORD, tenant, List.of("#")));
        Mqtt5BlockingClient[] nodes = {client(user, 0), client(user, 1)};
        assertThat(retain(nodes[0], "r/1", "one")).isEqualTo(Mqtt5PubAckReasonCode.SUCCESS);
        assertThat(retain(nodes[1], "r/2", "two")).isEqualTo(Mqtt5PubAckReasonCode.SUCCESS);
        // Retained records of different topics travel on different partitions, in no order between them: a new topic
        // sent now could reach the store before r/2 does and take its place. Wait until the store holds both.
        awaitRetained(user, Set.of("r/1", "r/2"));

        Set<String> refused = new HashSet<>();
        Set<String> accepted = new HashSet<>();
        try (KafkaConsumer<byte[], byte[]> kafka = PublishTopicTail.fromEnd(cluster.kafkaBootstrapServers())) {
            // Until each node has polled the tenant's state a new topic may pass the node; the store refuses it.
            for (int node = 0; node < 2; node++) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                boolean refusedHere = false;
                for (int i = 0; !refusedHere && System.nanoTime() < deadline; i++) {
                    String payload = "n" + node + "-" + i;
                    Mqtt5PubAckReasonCode code = retain(nodes[node], "r/new-" + payload, payload);
                    if (code == Mqtt5PubAckReasonCode.SUCCESS) {
                        accepted.add(payload);
                        Thread.sleep(100);
                    } else {
                        assertThat(code).isEqualTo(Mqtt5PubAckReasonCode.QUOTA_EXCEEDED);
                        refused.add(payload);
                        refusedHere = true;
                    }
                }
                assertThat(refusedHere).as("node %d refuses within 30 s", node).isTrue();
                assertThat(nodes[node].getState().isConnected())
                        .as("refused, not disconnected")
                        .isTrue();
            }
            // Every new topic a node let through reaches the store while it is full and is refused there; wait for
            // all of them before the deletion below makes room (a late one would then be stored, rightly).
            long storeDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (refusalsMetric(cluster.sessionManagementUrl(), tenant) < accepted.size()
                    && System.nanoTime() < storeDeadline) {
                Thread.sleep(100);
            }
            assertThat(refusalsMetric(cluster.sessionManagementUrl(), tenant))
                    .as("the store refused each of the %d new topics a node let through", accepted.size())
                    .isEqualTo(accepted.size());
            // A deletion always passes, and makes room.
            assertThat(retain(nodes[0], "r/2", "")).isEqualTo(Mqtt5PubAckReasonCode.SUCCESS);

            Set<String> inKafka = new HashSet<>();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < until) {
                for (ConsumerRecord<byte[], byte[]> r : kafka.poll(Duration.ofMillis(200))) {
                    String key = new String(r.key(), StandardCharsets.UTF_8);
                    if (key.startsWith("$tenant/" + tenant + "/r/new-")) {
                        inKafka.add(new String(r.value(), StandardCharsets.UTF_8));
                    }
                }
            }
            assertThat(inKafka).as("accepted ones are in Kafka").containsAll(accepted);
            assertThat(inKafka).as("nothing refused reaches Kafka").doesNotContainAnyElementsOf(refused);
        }
        // Exact at the store: what slipped through a node before it knew was not stored.
        assertThat(retainedFor(user, "r/#")).containsOnlyKeys("r/1");

        // Room again (one deleted): the nodes learn it with their next poll and accept one new topic.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Mqtt5PubAckReasonCode code = null;
        while (System.nanoTime() < deadline && code != Mqtt5PubAckReasonCode.SUCCESS) {
            code = retain(nodes[1], "r/3", "three");
            Thread.sleep(200);
        }
        assertThat(code).isEqualTo(Mqtt5PubAckReasonCode.SUCCESS);
        assertThat(retainedFor(user, "r/#")).containsOnlyKeys("r/1", "r/3");
        for (int node = 0; node < 2; node++) {
            assertThat(refusalsMetric(cluster.transportManagementUrl(node), tenant))
                    .as("tributary_tenant_quota_refusals_total{quota=retained} on node %d", node)
                    .isPositive();
        }
        for (Mqtt5BlockingClient c : nodes) {
            c.disconnect();
        }
    }

    /** Waits up to 30 s until a new subscriber gets exactly {@code topics} as retained messages. */
    private static void awaitRetained(String user, Set<String> topics) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Map<String, String> got = retainedFor(user, "r/#");
        while (!got.keySet().equals(topics) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            got = retainedFor(user, "r/#");
        }
        assertThat(got).containsOnlyKeys(topics);
    }

    private static double refusalsMetric(String httpUrl, String tenant) throws Exception {
        HttpResponse<String> scrape = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(httpUrl + "/actuator/prometheus"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return scrape.body()
                .lines()
                .filter(l -> l.startsWith("tributary_tenant_quota_refusals_total{")
                        && l.contains("quota=\"retained\"")
                        && l.contains("tenant=\"" + tenant + "\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
