package io.tributary.it.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.unsubscribe.unsuback.Mqtt5UnsubAck;
import com.hivemq.client.mqtt.mqtt5.message.unsubscribe.unsuback.Mqtt5UnsubAckReasonCode;
import io.tributary.it.support.Clients;
import io.tributary.it.support.ExtraSession;
import io.tributary.it.support.ExtraTransport;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.NodeProbe;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The control plane under a fleet's load: CONNECTs of two session-service instances, one of which dies, a whole
 * transport node's clients coming back at once after a kill -9 of the node, and many clients' UNSUBSCRIBEs at once.
 */
@ExtendWith(LogsOnFailure.class)
class ControlPlaneTest {

    /** Clients of the reconnect storm; {@code -Dtributary.it.storm.clients=N} changes it. */
    private static final int STORM_CLIENTS = Integer.getInteger("tributary.it.storm.clients", 10_000);
    /** Clients of the UNSUBSCRIBE test, half MQTT 5, half 3.1.1; {@code -Dtributary.it.unsubscribe.clients=N}. */
    private static final int UNSUBSCRIBING_CLIENTS = Integer.getInteger("tributary.it.unsubscribe.clients", 300);

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void two_session_services_share_the_connects_and_losing_one_loses_no_session() throws Exception {
        int clients = 300;
        try (ExtraSession second = cluster.startSessionService("session-b");
                ExtraTransport node = cluster.startTransport(
                        "cp-node",
                        Map.of(
                                "SESSION_SERVICE_URL",
                                cluster.sessionInternalUrl() + ","
                                        + second.ports().internalUrl(),
                                "MQTT_MAX_CONNECTION_RATE_PER_IP",
                                0))) {
            String prefix = Clients.id("cp");
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                ids.add(prefix + "-" + i);
            }
            try (Fleet fleet = new Fleet(node.mqttPort(), ids)) {
                Fleet.Result first = fleet.connectAll(false, Duration.ofSeconds(60));
                assertThat(first.failed()).as("first connect: %s", first).isZero();
                fleet.subscribeEach(id -> "cp/" + id);
                fleet.disconnectAll();
            }
            assertThat(connectBatches(cluster.sessionManagementUrl()))
                    .as("CONNECT batches of the shared instance")
                    .isPositive();
            assertThat(connectBatches(second.ports().managementUrl()))
                    .as("CONNECT batches of the second instance")
                    .isPositive();

            second.process().kill();
            // Queued for the offline sessions, then resumed through the surviving instance.
            Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(0), Clients.id("cp-pub"));
            publisher.connect();
            for (String id : ids) {
                publisher
                        .publishWith()
                        .topic("cp/" + id)
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .payload(id.getBytes(StandardCharsets.UTF_8))
                        .send();
            }
            publisher.disconnect();
            try (Fleet fleet = new Fleet(node.mqttPort(), ids)) {
                Fleet.Result back = fleet.connectAll(false, Duration.ofSeconds(60));
                assertThat(back.failed())
                        .as("reconnect after the second instance died: %s", back)
                        .isZero();
                assertThat(back.sessionPresent()).as("sessions resumed").isEqualTo(clients);
                assertThat(fleet.awaitMessages(clients, Duration.ofSeconds(30)))
                        .as("every client got the message queued while it was away")
                        .isEqualTo(clients);
                fleet.disconnectAll(0);
            }
        }
    }

    @Test
    void a_killed_nodes_clients_all_come_back_on_the_other_node_with_their_sessions() throws Exception {
        String prefix = Clients.id("storm");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < STORM_CLIENTS; i++) {
            ids.add(prefix + "-" + i);
        }
        // Every test client comes from 127.0.0.1: the per-address connection rate would refuse the fleet.
        ExtraTransport doomed = cluster.startTransport("storm-node", Map.of("MQTT_MAX_CONNECTION_RATE_PER_IP", 0));
        try (Fleet fleet = new Fleet(doomed.mqttPort(), ids)) {
            Fleet.Result first = fleet.connectAll(false, Duration.ofSeconds(180));
            assertThat(first.failed()).as("initial connect: %s", first).isZero();
            System.out.printf(
                    "reconnect storm: %d persistent sessions connected on %s in %d ms%n",
                    STORM_CLIENTS, "storm-node", first.millis());
            doomed.process().kill();
        }
        try (Fleet fleet = new Fleet(cluster.mqttPort(1), ids)) {
            Fleet.Result back = fleet.connectAll(false, Duration.ofSeconds(120));
            System.out.printf(
                    "reconnect storm: %d clients of a node killed with -9 back on node 2 in %d ms "
                            + "(%d sessions present, %d refusals retried)%n",
                    STORM_CLIENTS, back.millis(), back.sessionPresent(), back.retries());
            assertThat(back.failed()).as("reconnect: %s", back).isZero();
            assertThat(back.sessionPresent()).as("sessions resumed").isEqualTo(STORM_CLIENTS);
            fleet.disconnectAll(0);
        }
    }

    /**
     * Every client of a node sends two UNSUBSCRIBEs back to back without waiting (one of a subscribed and a never
     * subscribed filter, then the first again): the node carries them to session-service in batch calls, and each
     * client gets the answer its own packets call for — MQTT 5 per filter 0x00 / 0x11, then 0x11; MQTT 3.1.1 an
     * UNSUBACK each (it has no reason codes) — and afterwards receives from the filter it kept only.
     */
    @Test
    void pipelined_unsubscribes_of_many_clients_go_in_batches_and_are_answered_per_filter() throws Exception {
        int perVersion = UNSUBSCRIBING_CLIENTS / 2;
        String prefix = Clients.id("unsub");
        int port = cluster.mqttPort(0);
        NodeProbe node = new NodeProbe(cluster, 0);
        Set<String> received = ConcurrentHashMap.newKeySet();
        List<Mqtt5AsyncClient> v5 = new ArrayList<>();
        List<Mqtt3AsyncClient> v3 = new ArrayList<>();
        for (int i = 0; i < perVersion; i++) {
            v5.add(MqttClient.builder()
                    .useMqttVersion5()
                    .identifier(prefix + "-5-" + i)
                    .serverHost("127.0.0.1")
                    .serverPort(port)
                    .buildAsync());
            v3.add(MqttClient.builder()
                    .useMqttVersion3()
                    .identifier(prefix + "-3-" + i)
                    .serverHost("127.0.0.1")
                    .serverPort(port)
                    .buildAsync());
        }
        try {
            List<CompletableFuture<?>> ready = new ArrayList<>();
            for (int i = 0; i < perVersion; i++) {
                Mqtt5AsyncClient c5 = v5.get(i);
                String t5 = prefix + "/5/" + i;
                c5.publishes(
                        MqttGlobalPublishFilter.ALL,
                        p -> received.add(p.getTopic().toString()));
                ready.add(c5.connect()
                        .thenCompose(ack -> c5.subscribeWith()
                                .addSubscription()
                                .topicFilter(t5 + "/kept")
                                .qos(MqttQos.AT_LEAST_ONCE)
                                .applySubscription()
                                .addSubscription()
                                .topicFilter(t5 + "/gone")
                                .qos(MqttQos.AT_LEAST_ONCE)
                                .applySubscription()
                                .send()));
                Mqtt3AsyncClient c3 = v3.get(i);
                String t3 = prefix + "/3/" + i;
                c3.publishes(
                        MqttGlobalPublishFilter.ALL,
                        p -> received.add(p.getTopic().toString()));
                ready.add(c3.connect()
                        .thenCompose(ack -> c3.subscribeWith()
                                .addSubscription()
                                .topicFilter(t3 + "/kept")
                                .qos(MqttQos.AT_LEAST_ONCE)
                                .applySubscription()
                                .addSubscription()
                                .topicFilter(t3 + "/gone")
                                .qos(MqttQos.AT_LEAST_ONCE)
                                .applySubscription()
                                .send()));
            }
            CompletableFuture.allOf(ready.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            String before = node.scrape();
            long start = System.nanoTime();
            List<CompletableFuture<Mqtt5UnsubAck>> first = new ArrayList<>();
            List<CompletableFuture<Mqtt5UnsubAck>> second = new ArrayList<>();
            List<CompletableFuture<Void>> acks3 = new ArrayList<>();
            for (int i = 0; i < perVersion; i++) {
                String t5 = prefix + "/5/" + i;
                first.add(v5.get(i)
                        .unsubscribeWith()
                        .addTopicFilter(t5 + "/gone")
                        .addTopicFilter(t5 + "/never")
                        .send());
                second.add(v5.get(i).unsubscribeWith().topicFilter(t5 + "/gone").send());
                String t3 = prefix + "/3/" + i;
                acks3.add(v3.get(i)
                        .unsubscribeWith()
                        .addTopicFilter(t3 + "/gone")
                        .addTopicFilter(t3 + "/never")
                        .send());
                acks3.add(v3.get(i).unsubscribeWith().topicFilter(t3 + "/gone").send());
            }
            List<CompletableFuture<?>> all = new ArrayList<>(first);
            all.addAll(second);
            all.addAll(acks3);
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            String after = node.scrape();

            for (int i = 0; i < perVersion; i++) {
                assertThat(first.get(i).join().getReasonCodes())
                        .as("first UNSUBACK of client %d", i)
                        .containsExactly(
                                Mqtt5UnsubAckReasonCode.SUCCESS, Mqtt5UnsubAckReasonCode.NO_SUBSCRIPTIONS_EXISTED);
                assertThat(second.get(i).join().getReasonCodes())
                        .as("second UNSUBACK of client %d", i)
                        .containsExactly(Mqtt5UnsubAckReasonCode.NO_SUBSCRIPTIONS_EXISTED);
            }
            double requests = NodeProbe.sum(after, "tributary_session_call_requests_sum", "call=\"unsubscribe\"")
                    - NodeProbe.sum(before, "tributary_session_call_requests_sum", "call=\"unsubscribe\"");
            double calls = NodeProbe.sum(after, "tributary_session_call_requests_count", "call=\"unsubscribe\"")
                    - NodeProbe.sum(before, "tributary_session_call_requests_count", "call=\"unsubscribe\"");
            System.out.printf(
                    "pipelined unsubscribes: %d UNSUBSCRIBEs of %d clients answered in %d ms; %.0f of them "
                            + "in %.0f unsubscribe batch calls to session-service%n",
                    4 * perVersion, 2 * perVersion, millis, requests, calls);
            assertThat(requests)
                    .as("UNSUBSCRIBEs carried by unsubscribe batch calls")
                    .isEqualTo(4.0 * perVersion);
            assertThat(calls)
                    .as("unsubscribe batch calls for %.0f UNSUBSCRIBEs", requests)
                    .isPositive()
                    .isLessThan(requests / 2);

            Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(1), Clients.id("unsub-pub"));
            publisher.connect();
            try {
                for (int i = 0; i < perVersion; i++) {
                    for (String t : List.of(prefix + "/5/" + i, prefix + "/3/" + i)) {
                        publisher
                                .publishWith()
                                .topic(t + "/gone")
                                .qos(MqttQos.AT_LEAST_ONCE)
                                .send();
                        publisher
                                .publishWith()
                                .topic(t + "/kept")
                                .qos(MqttQos.AT_LEAST_ONCE)
                                .send();
                    }
                }
            } finally {
                publisher.disconnect();
            }
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (received.stream().filter(t -> t.endsWith("/kept")).count() < 2L * perVersion
                    && System.nanoTime() < until) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
            TimeUnit.SECONDS.sleep(1);
            assertThat(received)
                    .as("topics received after the UNSUBSCRIBEs")
                    .hasSize(2 * perVersion)
                    .allMatch(t -> t.endsWith("/kept"));
        } finally {
            v5.stream().filter(c -> c.getState().isConnected()).forEach(Mqtt5AsyncClient::disconnect);
            v3.stream().filter(c -> c.getState().isConnected()).forEach(Mqtt3AsyncClient::disconnect);
        }
    }

    /** Calls of the CONNECT batch endpoint one session-service instance served ({@code tributary.session.internal.calls}). */
    private static double connectBatches(String baseUrl) throws Exception {
        HttpResponse<String> scrape = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/prometheus"))
                                .timeout(Duration.ofSeconds(10))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return scrape.body()
                .lines()
                .filter(l -> l.startsWith("tributary_session_internal_calls_seconds_count")
                        && l.contains("call=\"connect-batch\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
