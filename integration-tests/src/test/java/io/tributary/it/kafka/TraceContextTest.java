package io.tributary.it.kafka;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.datatypes.Mqtt5UserProperty;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.AdminRequests;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.json.JsonMapper;

/**
 * W3C trace context end to end on the cluster: the {@code traceparent} / {@code tracestate} user properties of an
 * MQTT 5 PUBLISH become Kafka headers of the same names on the publish record and on a mapped record, and come back
 * as user properties to an MQTT 5 subscriber on the other node; a node started with {@code TRIBUTARY_TRACE_GENERATE}
 * gives a publish without one (here MQTT 3.1.1) a generated traceparent, which the subscriber gets too; the shared
 * nodes (generation off) add none.
 */
@ExtendWith(LogsOnFailure.class)
class TraceContextTest {

    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final String TRACESTATE = "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void traceparent_and_tracestate_become_kafka_headers_on_publish_and_mapped_records_and_come_back_on_delivery()
            throws Exception {
        String prefix = id("trace");
        String userTopic = id("it-traced");
        long rule = createRule(prefix + "/{device}/#", userTopic);
        try (RecordTail publishes = new RecordTail(cluster.kafkaBootstrapServers(), "tributary.publish");
                RecordTail mapped = new RecordTail(cluster.kafkaBootstrapServers(), userTopic)) {
            Mqtt5BlockingClient subscriber = Clients.hive5(cluster.mqttPort(1), id("tr-sub"));
            subscriber.connect();
            Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(0), id("tr-pub"));
            publisher.connect();
            try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
                subscriber
                        .subscribeWith()
                        .topicFilter(prefix + "/#")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();
                publisher
                        .publishWith()
                        .topic(prefix + "/d1/temp")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .payload("21".getBytes(StandardCharsets.UTF_8))
                        .userProperties()
                        .add("traceparent", TRACEPARENT)
                        .add("tracestate", TRACESTATE)
                        .add("other", "kept")
                        .applyUserProperties()
                        .send();
                publisher
                        .publishWith()
                        .topic(prefix + "/d1/untraced")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .payload("x".getBytes(StandardCharsets.UTF_8))
                        .send();

                // Two MQTT topics, two publish partitions: either may arrive first.
                Mqtt5Publish first = received.receive(15, TimeUnit.SECONDS).orElseThrow();
                Mqtt5Publish second = received.receive(15, TimeUnit.SECONDS).orElseThrow();
                boolean tracedFirst = first.getTopic().toString().endsWith("/temp");
                Mqtt5Publish traced = tracedFirst ? first : second;
                Mqtt5Publish untraced = tracedFirst ? second : first;
                assertThat(userProperties(traced))
                        .containsExactly(
                                Map.entry("traceparent", TRACEPARENT),
                                Map.entry("tracestate", TRACESTATE),
                                Map.entry("other", "kept"));
                assertThat(untraced.getTopic().toString()).endsWith("/untraced");
                assertThat(userProperties(untraced))
                        .as("no generation on the shared nodes")
                        .isEmpty();
            } finally {
                publisher.disconnect();
                subscriber.disconnect();
            }
            ConsumerRecord<byte[], byte[]> record = publishes.await(r -> key(r).equals(prefix + "/d1/temp"));
            assertThat(header(record, "traceparent")).isEqualTo(TRACEPARENT);
            assertThat(header(record, "tracestate")).isEqualTo(TRACESTATE);
            ConsumerRecord<byte[], byte[]> copy =
                    mapped.await(r -> header(r, "mqtt.topic").equals(prefix + "/d1/temp"));
            assertThat(header(copy, "traceparent")).isEqualTo(TRACEPARENT);
            assertThat(header(copy, "tracestate")).isEqualTo(TRACESTATE);
            assertThat(header(publishes.await(r -> key(r).equals(prefix + "/d1/untraced")), "traceparent"))
                    .isNull();
        } finally {
            deleteRule(rule);
        }
    }

    @Test
    void a_node_with_generation_on_gives_an_untraced_mqtt311_publish_a_traceparent_the_subscriber_gets()
            throws Exception {
        String topic = "trace-gen/" + id("t");
        try (TributaryCluster.ExtraTransport node =
                        cluster.startTransport("trace-node", Map.of("TRIBUTARY_TRACE_GENERATE", "true"));
                RecordTail publishes = new RecordTail(cluster.kafkaBootstrapServers(), "tributary.publish")) {
            Mqtt5BlockingClient subscriber = Clients.hive5(cluster.mqttPort(0), id("gen-sub"));
            subscriber.connect();
            try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
                subscriber
                        .subscribeWith()
                        .topicFilter(topic)
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();
                MqttClient publisher =
                        Clients.paho3(node.mqttPort(), id("gen-pub"), MqttConnectOptions.MQTT_VERSION_3_1_1);
                publisher.publish(topic, "m".getBytes(StandardCharsets.UTF_8), 1, false);
                publisher.disconnect();
                publisher.close();

                Optional<Mqtt5Publish> delivered = received.receive(15, TimeUnit.SECONDS);
                assertThat(delivered).isPresent();
                Map<String, String> properties = Map.copyOf(userProperties(delivered.get()).stream()
                        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
                String generated = properties.get("traceparent");
                assertThat(generated).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
                assertThat(header(publishes.await(r -> key(r).equals(topic)), "traceparent"))
                        .isEqualTo(generated);
            } finally {
                subscriber.disconnect();
            }
        }
    }

    private static List<Map.Entry<String, String>> userProperties(Mqtt5Publish publish) {
        return publish.getUserProperties().asList().stream()
                .map((Mqtt5UserProperty p) ->
                        Map.entry(p.getName().toString(), p.getValue().toString()))
                .toList();
    }

    private static String key(ConsumerRecord<byte[], byte[]> r) {
        return r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static long createRule(String filter, String kafkaTopic) throws Exception {
        String body = JSON.createObjectNode()
                .put("filter", filter)
                .put("kafkaTopic", kafkaTopic)
                .put("partitions", 1)
                .toString();
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        AdminRequests.to(cluster.sessionApiUrl(), "/api/v1/rules/mqtt-to-kafka")
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        for (int node = 0; node < 2; node++) {
            io.tributary.it.support.NodeProbe probe = new io.tributary.it.support.NodeProbe(cluster, node);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (io.tributary.it.support.NodeProbe.sum(probe.scrape(), "tributary_mapping_rules") < 1) {
                assertThat(System.nanoTime())
                        .as("node %d applies the rule", node)
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
        }
        return JSON.readTree(r.body()).path("id").asLong();
    }

    private static void deleteRule(long id) throws Exception {
        HttpClient.newHttpClient()
                .send(
                        AdminRequests.to(cluster.sessionApiUrl(), "/api/v1/rules/mqtt-to-kafka/" + id)
                                .DELETE()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }
}
