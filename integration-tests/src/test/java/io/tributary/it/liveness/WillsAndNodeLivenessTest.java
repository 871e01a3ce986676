package io.tributary.it.liveness;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.disconnect.Mqtt5DisconnectReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.AdminRequests;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Wills across the cluster: MQTT 5 will delay (published after the delay, cancelled by a reconnect, never after a
 * normal DISCONNECT), and wills of clients whose transport node was killed with SIGKILL, published once by
 * session-service after node liveness declared the node dead. The will's client is always on node 2 and the
 * subscriber on node 1. Runs after the other MQTT tests because it kills node 2; it starts node 2 again before it
 * ends, and waits until it is healthy and registered, so later test classes find two nodes.
 */
@ExtendWith(LogsOnFailure.class)
@Order(Integer.MAX_VALUE - 1)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WillsAndNodeLivenessTest {

    private static final int SUBSCRIBER_NODE = 0;
    private static final int WILL_NODE = 1;
    private static TributaryCluster cluster;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @AfterAll
    static void nodeTwoIsBack() throws Exception {
        cluster.restartTransport(WILL_NODE);
    }

    private static Mqtt5BlockingClient subscriber(String topic) {
        Mqtt5BlockingClient sub = Clients.hive5(cluster.mqttPort(SUBSCRIBER_NODE), Clients.id("will-sub"));
        sub.connect();
        sub.subscribeWith().topicFilter(topic).qos(MqttQos.AT_LEAST_ONCE).send();
        return sub;
    }

    private static RawMqtt rawClientWithWill(String clientId, String topic, int willDelaySeconds) throws Exception {
        RawMqtt raw = new RawMqtt(cluster.mqttPort(WILL_NODE));
        raw.send(Mqtt5Packets.connectWithWill(
                clientId, 60, 300, topic, utf8("will of " + clientId), 1, willDelaySeconds));
        byte[] connAck = raw.readPacket(10_000);
        assertThat(Mqtt5Packets.type(connAck)).isEqualTo(2);
        assertThat(Mqtt5Packets.reasonCode(connAck)).as("CONNACK reason").isZero();
        return raw;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private int sessionStatus(String clientId) throws Exception {
        return http.send(
                        AdminRequests.to(cluster.sessionApiUrl(), "/api/v1/sessions/" + clientId)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    private String session(String clientId) throws Exception {
        HttpResponse<String> r = http.send(
                AdminRequests.to(cluster.sessionApiUrl(), "/api/v1/sessions/" + clientId)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET session %s: %s", clientId, r.body()).isEqualTo(200);
        return r.body();
    }

    @Test
    @Order(1)
    void delayed_will_arrives_after_its_delay_and_not_before() throws Exception {
        String clientId = Clients.id("wd");
        String topic = "it/wills/" + clientId;
        int delay = 3;
        Mqtt5BlockingClient sub = subscriber(topic);
        try (Mqtt5BlockingClient.Mqtt5Publishes received = sub.publishes(MqttGlobalPublishFilter.ALL)) {
            RawMqtt raw = rawClientWithWill(clientId, topic, delay);
            long closedAt = System.nanoTime();
            raw.close(); // no DISCONNECT: an abnormal end

            Optional<Mqtt5Publish> early = received.receive(delay * 1000L - 300, TimeUnit.MILLISECONDS);
            assertThat(early).as("will before its delay of %d s", delay).isEmpty();
            Optional<Mqtt5Publish> will = received.receive(5, TimeUnit.SECONDS);
            long afterMs = (System.nanoTime() - closedAt) / 1_000_000;
            assertThat(will).as("will within %d s + 5 s", delay).isPresent();
            assertThat(new String(will.get().getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("will of " + clientId);
            System.out.printf(
                    "[wills] delayed will (delay %d s) arrived %d ms after the connection closed%n", delay, afterMs);
            assertThat(afterMs).isGreaterThanOrEqualTo(delay * 1000L - 300);
            assertThat(received.receive(2, TimeUnit.SECONDS))
                    .as("a second copy")
                    .isEmpty();
        } finally {
            sub.disconnect();
        }
    }

    @Test
    @Order(2)
    void reconnecting_within_the_delay_cancels_the_will() throws Exception {
        String clientId = Clients.id("wc");
        String topic = "it/wills/" + clientId;
        int delay = 3;
        Mqtt5BlockingClient sub = subscriber(topic);
        try (Mqtt5BlockingClient.Mqtt5Publishes received = sub.publishes(MqttGlobalPublishFilter.ALL)) {
            rawClientWithWill(clientId, topic, delay).close();
            // Back within the delay (on the other node, too), this time leaving no will.
            Mqtt5BlockingClient again = Clients.hive5(cluster.mqttPort(SUBSCRIBER_NODE), clientId);
            // Clean start 0: the session continues, so its pending will is cancelled.
            again.connectWith().cleanStart(false).sessionExpiryInterval(300).send();
            assertThat(received.receive(delay * 1000L + 3000, TimeUnit.MILLISECONDS))
                    .as("will of a client that came back within the delay")
                    .isEmpty();
            again.disconnect();
        } finally {
            sub.disconnect();
        }
    }

    @Test
    @Order(3)
    void normal_disconnect_publishes_no_will_with_or_without_delay() throws Exception {
        String topic = "it/wills/" + Clients.id("wn");
        Mqtt5BlockingClient sub = subscriber(topic);
        try (Mqtt5BlockingClient.Mqtt5Publishes received = sub.publishes(MqttGlobalPublishFilter.ALL)) {
            Mqtt5BlockingClient immediate = Clients.hive5(cluster.mqttPort(WILL_NODE), Clients.id("wn0"));
            immediate
                    .connectWith()
                    .willPublish()
                    .topic(topic)
                    .payload(utf8("no delay"))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .applyWillPublish()
                    .send();
            RawMqtt delayed = rawClientWithWill(Clients.id("wn1"), topic, 1);
            immediate.disconnect();
            delayed.send(Mqtt5Packets.disconnect());
            assertThat(delayed.awaitClosed(5_000)).isNotNegative();
            delayed.close();
            assertThat(received.receive(4, TimeUnit.SECONDS))
                    .as("a will after a normal DISCONNECT")
                    .isEmpty();
        } finally {
            sub.disconnect();
        }
    }

    @Test
    @Order(4)
    void disconnect_with_reason_0x04_publishes_the_will() throws Exception {
        String topic = "it/wills/" + Clients.id("w4");
        Mqtt5BlockingClient sub = subscriber(topic);
        try (Mqtt5BlockingClient.Mqtt5Publishes received = sub.publishes(MqttGlobalPublishFilter.ALL)) {
            Mqtt5BlockingClient client = Clients.hive5(cluster.mqttPort(WILL_NODE), Clients.id("w4c"));
            client.connectWith()
                    .willPublish()
                    .topic(topic)
                    .payload(utf8("asked for"))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .applyWillPublish()
                    .send();
            client.disconnectWith()
                    .reasonCode(Mqtt5DisconnectReasonCode.DISCONNECT_WITH_WILL_MESSAGE)
                    .send();
            Optional<Mqtt5Publish> will = received.receive(5, TimeUnit.SECONDS);
            assertThat(will).as("will after DISCONNECT 0x04").isPresent();
            assertThat(new String(will.get().getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("asked for");
            assertThat(received.receive(1, TimeUnit.SECONDS))
                    .as("a second copy")
                    .isEmpty();
        } finally {
            sub.disconnect();
        }
    }

    @Test
    @Order(5)
    void will_of_a_client_on_a_killed_node_reaches_the_other_node_once_and_its_session_ends() throws Exception {
        String persistent = Clients.id("wk-p");
        String clean = Clients.id("wk-c");
        String topic = "it/wills/" + Clients.id("wk");
        Mqtt5BlockingClient sub = subscriber(topic);
        try (Mqtt5BlockingClient.Mqtt5Publishes received = sub.publishes(MqttGlobalPublishFilter.ALL)) {
            Mqtt5BlockingClient p = Clients.hive5(cluster.mqttPort(WILL_NODE), persistent);
            p.connectWith()
                    .sessionExpiryInterval(600)
                    .willPublish()
                    .topic(topic)
                    .payload(utf8("p gone"))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .applyWillPublish()
                    .send();
            p.subscribeWith()
                    .topicFilter("it/wk/" + persistent)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            Mqtt5BlockingClient c = Clients.hive5(cluster.mqttPort(WILL_NODE), clean);
            c.connectWith()
                    .willPublish()
                    .topic(topic)
                    .payload(utf8("c gone"))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .applyWillPublish()
                    .send();
            assertThat(session(persistent)).contains("\"connected\":true");

            long killedAt = System.nanoTime();
            cluster.killTransport(WILL_NODE);

            Duration bound = TributaryCluster.NODE_TIMEOUT
                    .plus(TributaryCluster.NODE_CHECK_INTERVAL)
                    .plusSeconds(6);
            long floorMs = TributaryCluster.NODE_TIMEOUT
                    .minus(TributaryCluster.HEARTBEAT_INTERVAL)
                    .toMillis();
            java.util.List<String> payloads = new java.util.ArrayList<>();
            Optional<Mqtt5Publish> first = received.receive(bound.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(first)
                    .as("a will within %d ms of the kill", bound.toMillis())
                    .isPresent();
            long firstMs = (System.nanoTime() - killedAt) / 1_000_000;
            payloads.add(new String(first.get().getPayloadAsBytes(), StandardCharsets.UTF_8));
            Optional<Mqtt5Publish> second = received.receive(3, TimeUnit.SECONDS);
            assertThat(second).as("the second will").isPresent();
            long secondMs = (System.nanoTime() - killedAt) / 1_000_000;
            payloads.add(new String(second.get().getPayloadAsBytes(), StandardCharsets.UTF_8));
            System.out.printf(
                    "[wills] node killed: wills arrived %d ms and %d ms after SIGKILL (timeout %d ms)%n",
                    firstMs, secondMs, TributaryCluster.NODE_TIMEOUT.toMillis());
            assertThat(payloads).containsExactlyInAnyOrder("p gone", "c gone");
            // Not before the node could have been found silent: nobody else published them.
            assertThat(firstMs).isGreaterThanOrEqualTo(floorMs);
            assertThat(received.receive(3, TimeUnit.SECONDS))
                    .as("a will published twice")
                    .isEmpty();

            // The persistent session is offline (kept), the expiry-0 session is gone.
            String persisted = session(persistent);
            assertThat(persisted).contains("\"connected\":false");
            assertThat(sessionStatus(clean)).isEqualTo(404);
        } finally {
            sub.disconnect();
        }

        // Node 2 comes back as a new incarnation and accepts clients; nothing of the old one is published again.
        cluster.restartTransport(WILL_NODE);
        Mqtt5BlockingClient fresh = Clients.hive5(cluster.mqttPort(WILL_NODE), Clients.id("wk-new"));
        fresh.connect();
        fresh.disconnect();
    }
}
