package io.tributary.it.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;

import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;

/**
 * The control plane under a fleet's load: CONNECTs of two session-service instances, one of which dies, and a whole
 * transport node's clients coming back at once after a kill -9 of the node.
 */
@ExtendWith(LogsOnFailure.class)
class ControlPlaneTest {

    /** Clients of the reconnect storm; {@code -Dtributary.it.storm.clients=N} changes it. */
    private static final int STORM_CLIENTS = Integer.getInteger("tributary.it.storm.clients", 10_000);
    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void two_session_services_share_the_connects_and_losing_one_loses_no_session() throws Exception {
        int clients = 300;
        try (TributaryCluster.ExtraSession second = cluster.startSessionService("session-b");
                TributaryCluster.ExtraTransport node = cluster.startTransport("cp-node", Map.of(
                        "SESSION_SERVICE_URL", cluster.sessionApiUrl() + "," + second.url(),
                        "MQTT_MAX_CONNECTION_RATE_PER_IP", 0))) {
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
            assertThat(connectBatches(cluster.sessionApiUrl())).as("CONNECT batches of the shared instance")
                    .isPositive();
            assertThat(connectBatches(second.url())).as("CONNECT batches of the second instance").isPositive();

            second.process().kill();
            // Queued for the offline sessions, then resumed through the surviving instance.
            Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(0), Clients.id("cp-pub"));
            publisher.connect();
            for (String id : ids) {
                publisher.publishWith().topic("cp/" + id).qos(MqttQos.AT_LEAST_ONCE)
                        .payload(id.getBytes(StandardCharsets.UTF_8)).send();
            }
            publisher.disconnect();
            try (Fleet fleet = new Fleet(node.mqttPort(), ids)) {
                Fleet.Result back = fleet.connectAll(false, Duration.ofSeconds(60));
                assertThat(back.failed()).as("reconnect after the second instance died: %s", back).isZero();
                assertThat(back.sessionPresent()).as("sessions resumed").isEqualTo(clients);
                assertThat(fleet.awaitMessages(clients, Duration.ofSeconds(30)))
                        .as("every client got the message queued while it was away").isEqualTo(clients);
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
        TributaryCluster.ExtraTransport doomed = cluster.startTransport("storm-node",
                Map.of("MQTT_MAX_CONNECTION_RATE_PER_IP", 0));
        try (Fleet fleet = new Fleet(doomed.mqttPort(), ids)) {
            Fleet.Result first = fleet.connectAll(false, Duration.ofSeconds(180));
            assertThat(first.failed()).as("initial connect: %s", first).isZero();
            System.out.printf("reconnect storm: %d persistent sessions connected on %s in %d ms%n", STORM_CLIENTS,
                    "storm-node", first.millis());
            doomed.process().kill();
        }
        try (Fleet fleet = new Fleet(cluster.mqttPort(1), ids)) {
            Fleet.Result back = fleet.connectAll(false, Duration.ofSeconds(120));
            System.out.printf("reconnect storm: %d clients of a node killed with -9 back on node 2 in %d ms "
                    + "(%d sessions present, %d refusals retried)%n", STORM_CLIENTS, back.millis(),
                    back.sessionPresent(), back.retries());
            assertThat(back.failed()).as("reconnect: %s", back).isZero();
            assertThat(back.sessionPresent()).as("sessions resumed").isEqualTo(STORM_CLIENTS);
            fleet.disconnectAll(0);
        }
    }

    /** {@code http_server_requests} count of the CONNECT batch endpoint of one session-service instance. */
    private static double connectBatches(String baseUrl) throws Exception {
        HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(baseUrl + "/actuator/prometheus")).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return scrape.body().lines()
                .filter(l -> l.startsWith("http_server_requests_seconds_count")
                        && l.contains("/internal/v1/sessions/connect-batch"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }


}
