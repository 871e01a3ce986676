package io.tributary.it.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kafka crashes (SIGKILL) under connected clients: a QoS 1 publish is never acknowledged, new clients are refused
 * as server unavailable, the readiness probes of the node and of session-service fail while liveness holds, and
 * everything works again once the broker is back. Runs last: it disturbs the cluster.
 */
@Order(Integer.MAX_VALUE)
@ExtendWith(LogsOnFailure.class)
class KafkaOutageTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private static Mqtt5BlockingClient client(int node, String prefix) {
        return Clients.hive5(cluster.mqttPort(node), Clients.id(prefix));
    }

    @Test
    void publish_is_not_acknowledged_while_kafka_is_down_and_service_resumes_after() throws Exception {
        String topic = "it/outage/" + UUID.randomUUID();
        Mqtt5BlockingClient publisher = client(1, "outage-pub");
        publisher.connect();

        cluster.killKafka();
        try {
            long start = System.nanoTime();
            Throwable refused = catchThrowable(() -> publisher
                    .publishWith()
                    .topic(topic)
                    .payload("lost?".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send());
            assertThat(refused)
                    .as("a QoS 1 publish Kafka did not store is not acknowledged: the client is disconnected")
                    .isNotNull();
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start))
                    .isLessThan(30);

            Mqtt5BlockingClient late = client(1, "outage-late");
            assertThatThrownBy(late::connect)
                    .isInstanceOfSatisfying(
                            Mqtt5ConnAckException.class,
                            e -> assertThat(e.getMqttMessage().getReasonCode())
                                    .isEqualTo(Mqtt5ConnAckReasonCode.SERVER_UNAVAILABLE));

            // The probes agree: node 1 and session-service are alive but not ready (out of the load balancers).
            assertThat(probe(cluster.transportManagementUrl(1), "readiness")).isEqualTo(503);
            assertThat(probe(cluster.transportManagementUrl(1), "liveness")).isEqualTo(200);
            assertThat(probe(cluster.sessionManagementUrl(), "readiness")).isEqualTo(503);
            assertThat(probe(cluster.sessionManagementUrl(), "liveness")).isEqualTo(200);
        } finally {
            cluster.restartKafka();
        }

        // Back to normal: a subscriber on node 1 gets a QoS 1 message published on node 2.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        AssertionError last = null;
        while (System.nanoTime() < deadline) {
            try {
                assertEndToEnd(topic);
                assertThat(probe(cluster.transportManagementUrl(1), "readiness"))
                        .as("node 1 ready again")
                        .isEqualTo(200);
                assertThat(probe(cluster.sessionManagementUrl(), "readiness"))
                        .as("session ready again")
                        .isEqualTo(200);
                return;
            } catch (RuntimeException | AssertionError e) {
                last = e instanceof AssertionError a ? a : new AssertionError(e);
                Thread.sleep(2_000);
            }
        }
        throw last;
    }

    /** The HTTP status of {@code /actuator/health/<group>}. */
    private static int probe(String baseUrl, String group) throws Exception {
        return HTTP.send(
                        HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/health/" + group))
                                .timeout(Duration.ofSeconds(10))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static void assertEndToEnd(String topic) throws Exception {
        Mqtt5BlockingClient subscriber = client(0, "outage-sub");
        Mqtt5BlockingClient publisher = client(1, "outage-pub2");
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            publisher.connect();
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload("back".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            assertThat(in.receive(10, TimeUnit.SECONDS))
                    .as("delivered after Kafka is back")
                    .isPresent();
        } finally {
            if (publisher.getState().isConnected()) {
                publisher.disconnect();
            }
            if (subscriber.getState().isConnected()) {
                subscriber.disconnect();
            }
        }
    }
}
