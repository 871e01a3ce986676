package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5PubAckException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5SubAckException;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import com.hivemq.client.mqtt.mqtt5.message.publish.puback.Mqtt5PubAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.PublishTopicTail;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two tenants using the same topic names on the two nodes of the shared cluster: each tenant's subscribers (on
 * {@code #}, {@code meters/+} and a share group of the same name) get their own tenant's messages only, under the
 * names they were published with, retained ones included; a client without a tenant sees none of it and cannot name
 * the reserved namespace; Kafka records say which tenant they belong to; a client id in use by one tenant is not
 * another's; a tenant's connection quota holds across both nodes.
 */
@ExtendWith(LogsOnFailure.class)
class TenantIsolationTest {

    private static final String PASSWORD = "pw-tenant";
    private static TributaryCluster cluster;
    private static AuthApi api;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
        api = new AuthApi(cluster.sessionApiUrl());
    }

    /** A tenant's client: its own user name and credential in the tenant, allowed everything in its namespace. */
    private static Mqtt5BlockingClient client(String user, int node) throws Exception {
        Mqtt5BlockingClient client = Clients.hive5(cluster.mqttPort(node), Clients.id("tn"));
        AuthenticationTest.connect(client, user, PASSWORD);
        return client;
    }

    /** Subscribes and returns the stream of what arrives. */
    private static Mqtt5BlockingClient.Mqtt5Publishes subscribe(Mqtt5BlockingClient client, String filter) {
        Mqtt5BlockingClient.Mqtt5Publishes publishes = client.publishes(MqttGlobalPublishFilter.ALL);
        client.subscribeWith().topicFilter(filter).qos(MqttQos.AT_LEAST_ONCE).send();
        return publishes;
    }

    private static void publish(Mqtt5BlockingClient client, String topic, String payload, boolean retain) {
        client.publishWith()
                .topic(topic)
                .qos(MqttQos.AT_LEAST_ONCE)
                .retain(retain)
                .payload(payload.getBytes(StandardCharsets.UTF_8))
                .send();
    }

    /** "topic=payload" of the first {@code expected} messages that arrive within 15 s. */
    private static List<String> received(Mqtt5BlockingClient.Mqtt5Publishes publishes, int expected)
            throws InterruptedException {
        List<String> got = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (got.size() < expected && System.nanoTime() < deadline) {
            publishes.receive(200, TimeUnit.MILLISECONDS).ifPresent(p -> got.add(text(p)));
        }
        return got;
    }

    /** Everything that arrives until {@code last} did (or 15 s passed). */
    private static List<String> receivedUntil(Mqtt5BlockingClient.Mqtt5Publishes publishes, String last)
            throws InterruptedException {
        List<String> got = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!got.contains(last) && System.nanoTime() < deadline) {
            publishes.receive(200, TimeUnit.MILLISECONDS).ifPresent(p -> got.add(text(p)));
        }
        return got;
    }

    /** What arrived besides: called after one quiet second shared by all subscribers. */
    private static List<String> more(Mqtt5BlockingClient.Mqtt5Publishes publishes) {
        List<String> got = new ArrayList<>();
        Optional<Mqtt5Publish> next;
        while ((next = publishes.receiveNow()).isPresent()) {
            got.add(text(next.get()));
        }
        return got;
    }

    private static String text(Mqtt5Publish p) {
        return p.getTopic() + "=" + new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8);
    }

    @Test
    void two_tenants_with_the_same_topic_names_never_see_each_others_messages() throws Exception {
        String a = Clients.id("ta");
        String b = Clients.id("tb");
        api.createTenant(a);
        api.createTenant(b);
        String userA = Clients.id("ua");
        String userB = Clients.id("ub");
        api.create(AuthApi.credential(userA, PASSWORD, a, List.of("#")));
        api.create(AuthApi.credential(userB, PASSWORD, b, List.of("#")));

        try (KafkaConsumer<byte[], byte[]> kafka = PublishTopicTail.fromEnd(cluster.kafkaBootstrapServers())) {
            // Retained first, each tenant on another node.
            Mqtt5BlockingClient pubA = client(userA, 0);
            Mqtt5BlockingClient pubB = client(userB, 1);
            publish(pubA, "meters/1", a + "-retained", true);
            publish(pubB, "meters/1", b + "-retained", true);

            Mqtt5BlockingClient subA = client(userA, 1);
            Mqtt5BlockingClient subAPlus = client(userA, 0);
            Mqtt5BlockingClient shareA = client(userA, 0);
            Mqtt5BlockingClient subB = client(userB, 0);
            Mqtt5BlockingClient subBPlus = client(userB, 1);
            Mqtt5BlockingClient shareB = client(userB, 1);
            Mqtt5BlockingClient global = Clients.hive5(cluster.mqttPort(0), Clients.id("tn-g"));
            global.connect();
            var fromAll = List.of(
                    subscribe(subA, "#"),
                    subscribe(subAPlus, "meters/+"),
                    subscribe(shareA, "$share/grp/meters/+"),
                    subscribe(subB, "#"),
                    subscribe(subBPlus, "meters/+"),
                    subscribe(shareB, "$share/grp/meters/+"),
                    subscribe(global, "#"));

            // The reserved namespace is nobody's to name, not even an unrestricted anonymous client's.
            assertThatThrownBy(() -> publish(global, "$tenant/" + a + "/meters/1", "forged", false))
                    .isInstanceOfSatisfying(
                            Mqtt5PubAckException.class,
                            e -> assertThat(e.getMqttMessage().getReasonCode())
                                    .isEqualTo(Mqtt5PubAckReasonCode.NOT_AUTHORIZED));
            assertThatThrownBy(() -> global.subscribeWith()
                            .topicFilter("$tenant/" + a + "/#")
                            .send())
                    .isInstanceOfSatisfying(
                            Mqtt5SubAckException.class,
                            e -> assertThat(e.getMqttMessage().getReasonCodes())
                                    .containsExactly(Mqtt5SubAckReasonCode.NOT_AUTHORIZED));

            publish(pubA, "meters/1", a + "-live", false);
            publish(pubB, "meters/1", b + "-live", false);
            Mqtt5BlockingClient globalPub = Clients.hive5(cluster.mqttPort(1), Clients.id("tn-gp"));
            globalPub.connect();
            publish(globalPub, "meters/1", "global-live", false);

            List<String> ownA = List.of("meters/1=" + a + "-retained", "meters/1=" + a + "-live");
            List<String> ownB = List.of("meters/1=" + b + "-retained", "meters/1=" + b + "-live");
            assertThat(received(fromAll.get(0), 2)).isEqualTo(ownA);
            assertThat(received(fromAll.get(1), 2)).isEqualTo(ownA);
            assertThat(received(fromAll.get(2), 1)).containsExactly("meters/1=" + a + "-live");
            assertThat(received(fromAll.get(3), 2)).isEqualTo(ownB);
            assertThat(received(fromAll.get(4), 2)).isEqualTo(ownB);
            assertThat(received(fromAll.get(5), 1)).containsExactly("meters/1=" + b + "-live");
            // The global # gets the shared cluster's other retained messages too: read until its own live one.
            List<String> globalGot = receivedUntil(fromAll.get(6), "meters/1=global-live");
            Thread.sleep(1000);
            for (int i = 0; i < 6; i++) {
                assertThat(more(fromAll.get(i)))
                        .as("nothing of the other tenant, nothing twice")
                        .isEmpty();
            }
            globalGot.addAll(more(fromAll.get(6)));
            assertThat(globalGot).contains("meters/1=global-live");
            assertThat(String.join("\n", globalGot))
                    .doesNotContain(a)
                    .doesNotContain(b)
                    .doesNotContain("forged");

            // Kafka consumers see the tenant in the key's reserved prefix and in a header.
            ConsumerRecord<byte[], byte[]> record = await(kafka, "$tenant/" + a + "/meters/1");
            assertThat(new String(
                            record.headers().lastHeader("tributary.tenant").value(), StandardCharsets.UTF_8))
                    .isEqualTo(a);

            // A client id in use in tenant A is not tenant B's (nor the global namespace's) to take over.
            String taken = subA.getConfig().getClientIdentifier().orElseThrow().toString();
            Mqtt5BlockingClient intruder = Clients.hive5(cluster.mqttPort(0), taken);
            assertThat(AuthenticationTest.refusal(() -> AuthenticationTest.connect(intruder, userB, PASSWORD)))
                    .isEqualTo(Mqtt5ConnAckReasonCode.NOT_AUTHORIZED);
            assertThat(subA.getState().isConnected()).isTrue();

            for (Mqtt5BlockingClient c : List.of(pubA, pubB, subA, subAPlus, shareA, subB, subBPlus, shareB)) {
                c.disconnect();
            }
            global.disconnect();
            globalPub.disconnect();
        }
    }

    private static ConsumerRecord<byte[], byte[]> await(KafkaConsumer<byte[], byte[]> consumer, String key) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                if (r.key() != null && new String(r.key(), StandardCharsets.UTF_8).equals(key)) {
                    return r;
                }
            }
        }
        throw new AssertionError("no record with key " + key + " within 20 s");
    }

    @Test
    void a_tenants_connection_quota_holds_across_both_nodes_with_each_protocols_code() throws Exception {
        String tenant = Clients.id("tq");
        api.createTenant(tenant, 2);
        String user = Clients.id("uq");
        api.create(AuthApi.credential(user, PASSWORD, tenant, List.of("#")));
        Mqtt5BlockingClient first = client(user, 0);
        client(user, 1);

        // The quota is the cluster's, not a node's: a third client is refused on either node.
        Mqtt5BlockingClient third = Clients.hive5(cluster.mqttPort(0), Clients.id("tq"));
        assertThat(AuthenticationTest.refusal(() -> AuthenticationTest.connect(third, user, PASSWORD)))
                .isEqualTo(Mqtt5ConnAckReasonCode.QUOTA_EXCEEDED);
        assertThat(AuthenticationTest.paho3Refusal(cluster.mqttPort(1), Clients.id("tq3"), user, PASSWORD))
                .as("MQTT 3.1.1: 3, server unavailable")
                .isEqualTo(3);
        // Another tenant, and the global namespace, are not counted against it.
        Clients.hive5(cluster.mqttPort(1), Clients.id("tq-global")).connect();

        // A client that leaves frees its place (once its node has told session-service).
        first.disconnect();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        Mqtt5ConnAckReasonCode last;
        do {
            Mqtt5BlockingClient next = Clients.hive5(cluster.mqttPort(1), Clients.id("tq"));
            try {
                AuthenticationTest.connect(next, user, PASSWORD);
                return;
            } catch (com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException e) {
                last = e.getMqttMessage().getReasonCode();
                TimeUnit.MILLISECONDS.sleep(200);
            }
        } while (System.nanoTime() < deadline);
        throw new AssertionError("no place freed within 15 s; last refusal " + last);
    }
}
