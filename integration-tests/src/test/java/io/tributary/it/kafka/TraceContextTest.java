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
import io.tributary.it.support.ExtraRouter;
import io.tributary.it.support.ExtraTransport;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.OtlpReceiver;
import io.tributary.it.support.OtlpReceiver.ReceivedSpan;
import io.tributary.it.support.RecordTail;
import io.tributary.it.support.TributaryCluster;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.utils.Utils;
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
 * nodes (generation off) add none. With tracing on, each hop exports its span, chained by those headers.
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
        try (ExtraTransport node = cluster.startTransport("trace-node", Map.of("TRIBUTARY_TRACE_GENERATE", "true"));
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

    /**
     * With tracing on (a node and a router of their own beside the shared ones, exporting to a receiver of the test),
     * a sampled traceparent gives one trace: the node's publish span under the publisher's span, the router's route
     * span under it and the node's deliver span under that, each hop's context on the records it writes; a
     * sampled-out traceparent gives no span but still a context of the same trace on the publish record.
     */
    @Test
    void with_tracing_on_the_hops_export_one_chain_of_spans_and_a_sampled_out_trace_only_propagates() throws Exception {
        String sampledOut = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            Map<String, Object> tracing = Map.of(
                    "TRIBUTARY_TRACING_ENABLED", "true",
                    "TRIBUTARY_TRACING_ENDPOINT", receiver.endpoint(),
                    "TRIBUTARY_TRACING_EXPORT_INTERVAL", "200ms");
            // Both at once: each takes seconds to become healthy. The router joins the shared routers' group.
            CompletableFuture<ExtraRouter> startingRouter = CompletableFuture.supplyAsync(() -> {
                try {
                    return cluster.startRouter("trace-router", tracing);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (ExtraTransport node = cluster.startTransport("trace-span-node", tracing);
                    ExtraRouter router = startingRouter.get(150, TimeUnit.SECONDS);
                    RecordTail publishes = new RecordTail(cluster.kafkaBootstrapServers(), "tributary.publish")) {
                // A topic on a publish partition the tracing router owns.
                Set<Integer> owned = RouterOwnership.await(
                        cluster.kafkaBootstrapServers(), router.process().logFile());
                String topic = null;
                for (int i = 0; topic == null || !owned.contains(partitionOf(topic)); i++) {
                    topic = "trace-spans/" + id("t") + "/" + i;
                }
                Mqtt5BlockingClient subscriber = Clients.hive5(node.mqttPort(), id("span-sub"));
                subscriber.connect();
                // A persistent session: its QoS 1 messages come from its session queue, not the downlink.
                Mqtt5BlockingClient persistent = Clients.hive5(node.mqttPort(), id("span-persistent"));
                persistent.connectWith().sessionExpiryInterval(300).send();
                Mqtt5BlockingClient publisher = Clients.hive5(node.mqttPort(), id("span-pub"));
                publisher.connect();
                try (Mqtt5BlockingClient.Mqtt5Publishes received = subscriber.publishes(MqttGlobalPublishFilter.ALL);
                        Mqtt5BlockingClient.Mqtt5Publishes queued = persistent.publishes(MqttGlobalPublishFilter.ALL)) {
                    for (Mqtt5BlockingClient client : List.of(subscriber, persistent)) {
                        client.subscribeWith()
                                .topicFilter(topic)
                                .qos(MqttQos.AT_LEAST_ONCE)
                                .send();
                    }
                    for (String traceparent : List.of(sampledOut, TRACEPARENT)) {
                        publisher
                                .publishWith()
                                .topic(topic)
                                .qos(MqttQos.AT_LEAST_ONCE)
                                .payload(traceparent.getBytes(StandardCharsets.UTF_8))
                                .userProperties()
                                .add("traceparent", traceparent)
                                .applyUserProperties()
                                .send();
                    }
                    assertThat(received.receive(15, TimeUnit.SECONDS)).isPresent();
                    assertThat(received.receive(15, TimeUnit.SECONDS)).isPresent();
                    assertThat(queued.receive(15, TimeUnit.SECONDS)).isPresent();
                    assertThat(queued.receive(15, TimeUnit.SECONDS)).isPresent();
                } finally {
                    publisher.disconnect();
                    subscriber.disconnect();
                    persistent.disconnectWith().sessionExpiryInterval(0).send();
                }

                String traceId = TRACEPARENT.substring(3, 35);
                ReceivedSpan publish = span(receiver, traceId, "publish");
                ReceivedSpan route = span(receiver, traceId, "route");
                ReceivedSpan deliver = span(receiver, traceId, "deliver");
                assertThat(publish.service()).isEqualTo("tributary-transport");
                assertThat(publish.parentSpanId()).isEqualTo(TRACEPARENT.substring(36, 52));
                assertThat(route.service()).isEqualTo("tributary-routing");
                assertThat(route.parentSpanId()).isEqualTo(publish.spanId());
                assertThat(deliver.service()).isEqualTo("tributary-transport");
                assertThat(deliver.parentSpanId()).isEqualTo(route.spanId());
                // One deliver span per way out: the live one and the persistent session's, from its queue.
                assertThat(receiver.await(
                                s -> s.traceId().equals(traceId)
                                        && s.name().equals("deliver")
                                        && !s.spanId().equals(deliver.spanId()),
                                20))
                        .as("the queue-served deliver span among %s", receiver.spans())
                        .hasValueSatisfying(s -> assertThat(s.parentSpanId()).isEqualTo(route.spanId()));
                // The publish span is the parent the publish record carries.
                String tracedTopic = topic;
                assertThat(header(
                                publishes.await(r -> key(r).equals(tracedTopic)
                                        && new String(r.value(), StandardCharsets.UTF_8).equals(TRACEPARENT)),
                                "traceparent"))
                        .isEqualTo("00-" + traceId + "-" + publish.spanId() + "-01");

                // Sampled out: a context of the same trace, not sampled, with the node's span id; no span exported.
                String propagated = header(
                        publishes.await(r -> key(r).equals(tracedTopic)
                                && new String(r.value(), StandardCharsets.UTF_8).equals(sampledOut)),
                        "traceparent");
                assertThat(propagated).startsWith(sampledOut.substring(0, 36)).endsWith("-00");
                assertThat(propagated).isNotEqualTo(sampledOut);
                assertThat(receiver.spans())
                        .as("no span of the sampled-out trace, though the sampled one's are all in")
                        .noneMatch(s -> s.traceId().equals(sampledOut.substring(3, 35)));
            } finally {
                RouterOwnership.awaitSharedRouterOwnsAll(cluster.kafkaBootstrapServers());
            }
        }
    }

    private static ReceivedSpan span(OtlpReceiver receiver, String traceId, String name) throws InterruptedException {
        return receiver.await(s -> s.traceId().equals(traceId) && s.name().equals(name), 20)
                .orElseThrow(() ->
                        new AssertionError("no " + name + " span of trace " + traceId + " among " + receiver.spans()));
    }

    private static int partitionOf(String topic) {
        return Utils.toPositive(Utils.murmur2(topic.getBytes(StandardCharsets.UTF_8))) % 4;
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
