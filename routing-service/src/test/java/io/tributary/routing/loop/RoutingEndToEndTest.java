package io.tributary.routing.loop;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.common.kafka.DownlinkType;
import io.tributary.common.kafka.RecordHeaders;
import io.tributary.common.kafka.TopicLayout;
import io.tributary.common.kafka.TopicNames;
import io.tributary.common.subscription.SharedTargets;
import io.tributary.common.subscription.SubscriptionRecord;
import io.tributary.common.subscription.SubscriptionRecords;
import io.tributary.devstack.kafka.EmbeddedKafka;
import io.tributary.routing.RoutingServiceApplication;
import io.tributary.routing.support.TestKafka;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole service against a real in-JVM Kafka: subscription feed and publishes in, downlink records out; with
 * tracing on, exporting to a collector of the test.
 */
class RoutingEndToEndTest {

    private static final int PUBLISH_PARTITIONS = 3;
    private static final TopicLayout LAYOUT =
            TopicLayout.singleBroker(PUBLISH_PARTITIONS, 2, 1, java.time.Duration.ofHours(1));
    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    static Path kafkaDir;

    private static EmbeddedKafka kafka;
    private static Admin admin;
    private static KafkaProducer<byte[], byte[]> producer;
    private static ConfigurableApplicationContext app;
    /** The router exports its route spans here (tracing on for the whole class: spans only cost time). */
    private static HttpServer collector;

    private static final List<Span> spans = new CopyOnWriteArrayList<>();
    private static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void startKafkaAndRouter() throws Exception {
        kafka = EmbeddedKafka.start(kafkaDir);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
        producer = TestKafka.producer(kafka.bootstrapServers());
        // Traffic from before the router's group existed: it must be routed, not skipped.
        ensureSharedTopics();
        LAYOUT.ensureDownlinkTopic(admin, "early");
        subscribe(new SubscriptionRecord("early-client", "early/topic", "early", 1, false, false, 0, 1));
        publish("early/topic", "from before the router started", "publisher");

        collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/v1/traces", exchange -> {
            try (exchange) {
                ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(
                        exchange.getRequestBody().readAllBytes());
                request.getResourceSpansList().stream()
                        .filter(r -> r.getResource().getAttributesList().stream()
                                .anyMatch(a -> a.getKey().equals("service.name")
                                        && a.getValue().getStringValue().equals("tributary-routing")))
                        .flatMap(r -> r.getScopeSpansList().stream())
                        .forEach(scope -> spans.addAll(scope.getSpansList()));
                exchange.sendResponseHeaders(200, -1);
            }
        });
        collector.start();
        app = new SpringApplicationBuilder(RoutingServiceApplication.class)
                .run(
                        "--tributary.tracing.enabled=true",
                        "--tributary.tracing.endpoint=http://127.0.0.1:"
                                + collector.getAddress().getPort() + "/v1/traces",
                        "--tributary.tracing.export-interval=100ms",
                        "--server.port=0",
                        "--tributary.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
                        "--tributary.kafka.topics.publish-partitions=" + PUBLISH_PARTITIONS,
                        "--tributary.kafka.topics.wildcard-partitions=2",
                        "--tributary.kafka.topics.downlink-partitions=1",
                        "--tributary.routing.group-id=routing-e2e");
    }

    @AfterAll
    static void stopEverything() {
        if (app != null) {
            app.close();
        }
        if (collector != null) {
            collector.stop(0);
        }
        if (producer != null) {
            producer.close();
        }
        if (admin != null) {
            admin.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void a_traced_publish_gets_a_route_span_which_is_the_parent_on_its_downlink_record() throws Exception {
        LAYOUT.ensureDownlinkTopic(admin, "node-traced");
        subscribe(new SubscriptionRecord("traced-client", "traced/topic", "node-traced", 1, false, false, 0, 1));
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        ProducerRecord<byte[], byte[]> record =
                new ProducerRecord<>(TopicNames.PUBLISH, utf8("traced/topic"), utf8("traced"));
        record.headers().add(RecordHeaders.CLIENT_ID, RecordHeaders.utf8("publisher"));
        record.headers().add("traceparent", utf8("00-" + traceId + "-00f067aa0ba902b7-01"));
        send(record);

        ConsumerRecord<byte[], byte[]> routed = readDownlink("node-traced", 1).get(0);
        String traceparent = utf8(routed.headers().lastHeader("traceparent").value());
        assertThat(traceparent).startsWith("00-" + traceId + "-").endsWith("-01");
        String routeSpanId = traceparent.substring(36, 52);
        assertThat(routeSpanId).isNotEqualTo("00f067aa0ba902b7");

        long deadline = System.nanoTime() + WAIT.toNanos();
        Span route = null;
        while (route == null && System.nanoTime() < deadline) {
            route = spans.stream()
                    .filter(s -> HexFormat.of()
                            .formatHex(s.getSpanId().toByteArray())
                            .equals(routeSpanId))
                    .findFirst()
                    .orElse(null);
            Thread.sleep(50);
        }
        assertThat(route).as("the route span exported").isNotNull();
        assertThat(route.getName()).isEqualTo("route");
        assertThat(HexFormat.of().formatHex(route.getTraceId().toByteArray())).isEqualTo(traceId);
        assertThat(HexFormat.of().formatHex(route.getParentSpanId().toByteArray()))
                .isEqualTo("00f067aa0ba902b7");
    }

    @Test
    void publish_from_before_the_router_started_is_routed() {
        List<ConsumerRecord<byte[], byte[]>> received = readDownlink("early", 1);

        assertThat(received).hasSize(1);
        assertThat(utf8(received.get(0).value())).isEqualTo("from before the router started");
    }

    @Test
    void each_interested_node_gets_one_copy_with_key_value_and_headers_unchanged() throws Exception {
        LAYOUT.ensureDownlinkTopic(admin, "node-a");
        LAYOUT.ensureDownlinkTopic(admin, "node-b");
        // Bad feed records must be skipped without stopping the loop.
        send(new ProducerRecord<>(TopicNames.SUBSCRIPTIONS_WILDCARD, utf8("garbage"), utf8("garbage")));
        send(new ProducerRecord<>(
                TopicNames.SUBSCRIPTIONS_EXACT, 0, SubscriptionRecord.key("x/y", "c"), utf8("garbage")));
        subscribe(new SubscriptionRecord("a1", "fan/out", "node-a", 1, false, false, 0, 1));
        subscribe(new SubscriptionRecord("a2", "fan/+", "node-a", 0, false, false, 0, 1));
        subscribe(new SubscriptionRecord("b1", "fan/#", "node-b", 2, false, false, 0, 1));
        subscribe(new SubscriptionRecord("offline", "fan/out", null, 1, false, false, 0, 1));
        subscribe(new SubscriptionRecord("gone", "fan/out", "node-gone", 1, false, false, 0, 1));

        List<Header> headers = List.of(
                new RecordHeader(RecordHeaders.QOS, RecordHeaders.int32(1)),
                new RecordHeader(RecordHeaders.CLIENT_ID, RecordHeaders.utf8("publisher")),
                new RecordHeader(RecordHeaders.USER_PROPERTY_PREFIX + "z", RecordHeaders.utf8("first")),
                new RecordHeader(RecordHeaders.USER_PROPERTY_PREFIX + "a", RecordHeaders.utf8("second")));
        org.apache.kafka.clients.producer.RecordMetadata published =
                send(new ProducerRecord<>(TopicNames.PUBLISH, null, utf8("fan/out"), utf8("payload"), headers));

        for (String node : List.of("node-a", "node-b")) {
            List<ConsumerRecord<byte[], byte[]>> received = readDownlink(node, 1);
            assertThat(received).as(node).hasSize(1);
            ConsumerRecord<byte[], byte[]> delivery = received.get(0);
            assertThat(utf8(delivery.key())).isEqualTo("fan/out");
            assertThat(utf8(delivery.value())).isEqualTo("payload");
            List<Header> expected = new java.util.ArrayList<>(headers);
            // Plus where the message is in the publish topic, which a replaying node joins its replay on.
            expected.add(new RecordHeader(
                    RecordHeaders.SOURCE, RecordHeaders.source(published.partition(), published.offset())));
            assertThat(delivery.headers().toArray()).containsExactlyElementsOf(expected);
        }
        String metrics = scrape("/actuator/prometheus");
        assertThat(metric(metrics, "tributary_routing_dropped_total\\{[^}]*reason=\"unknown_node\"[^}]*\\}"))
                .isGreaterThanOrEqualTo(1);
        assertThat(metric(metrics, "tributary_routing_subscriptions_malformed_total(\\{[^}]*\\})?"))
                .isGreaterThanOrEqualTo(2);
        assertThat(metric(metrics, "tributary_routing_index_offline(\\{[^}]*\\})?"))
                .isGreaterThanOrEqualTo(1);
        assertThat(metrics)
                .contains("tributary_kafka_produce_latency_seconds_count{")
                .contains("service=\"routing\"");
    }

    @Test
    void share_group_members_on_two_nodes_are_named_in_the_downlink_records_in_turn() {
        LAYOUT.ensureDownlinkTopic(admin, "node-s1");
        LAYOUT.ensureDownlinkTopic(admin, "node-s2");
        subscribe(new SubscriptionRecord("s1", "$share/g/share/+", "node-s1", 1, false, false, 0, 1));
        subscribe(new SubscriptionRecord("s2", "$share/g/share/+", "node-s2", 1, false, false, 0, 1));
        subscribe(new SubscriptionRecord("normal", "share/x", "node-s1", 1, false, false, 0, 1));
        for (int i = 0; i < 4; i++) {
            ProducerRecord<byte[], byte[]> record =
                    new ProducerRecord<>(TopicNames.PUBLISH, utf8("share/x"), utf8("m" + i));
            record.headers().add(RecordHeaders.CLIENT_ID, RecordHeaders.utf8("publisher"));
            // Whatever a publish record carries under this name, only the router's choice reaches the node.
            record.headers()
                    .add(
                            RecordHeaders.SHARED_TARGETS,
                            SharedTargets.encode(List.of(
                                    new SharedTargets.Target("s1", "$share/g/share/+"),
                                    new SharedTargets.Target("s2", "$share/g/share/+"))));
            send(record);
        }

        List<ConsumerRecord<byte[], byte[]>> toS1 = readDownlink("node-s1", 4);
        List<ConsumerRecord<byte[], byte[]>> toS2 = readDownlink("node-s2", 2);
        assertThat(toS1)
                .as("node-s1 gets every message for its normal subscriber")
                .hasSize(4);
        assertThat(toS2).hasSize(2);
        List<String> chosen = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : toS1) {
            List<SharedTargets.Target> targets =
                    SharedTargets.decode(RecordHeaders.readBytes(r.headers(), RecordHeaders.SHARED_TARGETS));
            assertThat(targets).isSubsetOf(new SharedTargets.Target("s1", "$share/g/share/+"));
            if (!targets.isEmpty()) {
                chosen.add("s1:" + utf8(r.value()));
            }
        }
        for (ConsumerRecord<byte[], byte[]> r : toS2) {
            assertThat(SharedTargets.decode(RecordHeaders.readBytes(r.headers(), RecordHeaders.SHARED_TARGETS)))
                    .containsExactly(new SharedTargets.Target("s2", "$share/g/share/+"));
            chosen.add("s2:" + utf8(r.value()));
        }
        assertThat(chosen)
                .as("each message to exactly one member, in turn")
                .hasSize(4)
                .extracting(c -> c.substring(3))
                .containsExactlyInAnyOrder("m0", "m1", "m2", "m3");
        assertThat(chosen).filteredOn(c -> c.startsWith("s1:")).hasSize(2);
    }

    @Test
    void a_subscriber_acknowledged_before_a_publish_receives_it() {
        LAYOUT.ensureDownlinkTopic(admin, "node-c");
        int rounds = 25;
        for (int i = 0; i < rounds; i++) {
            String filter = (i % 2 == 0) ? "causal/" + i : "causal/+/" + i;
            // Acknowledged subscription first (what session-service waits for before the SUBACK), then the publish.
            subscribe(new SubscriptionRecord("causal-" + i, filter, "node-c", 1, false, false, 0, 1));
            String topic = (i % 2 == 0) ? "causal/" + i : "causal/x/" + i;
            publish(topic, "m" + i, "publisher");
        }

        List<ConsumerRecord<byte[], byte[]>> received = readDownlink("node-c", rounds);

        assertThat(received).extracting(r -> utf8(r.value())).hasSize(rounds);
    }

    @Test
    void a_node_that_just_started_is_found_while_a_gone_node_keeps_missing() throws Exception {
        subscribe(new SubscriptionRecord("stale", "fresh/topic", "gone-node", 1, false, false, 0, 1));
        double droppedBefore = droppedUnknownNode();
        publish("fresh/topic", "to the gone node only", "publisher");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (droppedUnknownNode() <= droppedBefore && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(droppedUnknownNode()).isGreaterThan(droppedBefore);

        // Within the miss-refresh interval of that miss: the new node must still be found at once.
        LAYOUT.ensureDownlinkTopic(admin, "fresh-node");
        subscribe(new SubscriptionRecord("fresh", "fresh/topic", "fresh-node", 1, false, false, 0, 1));
        publish("fresh/topic", "to the fresh node", "publisher");

        List<ConsumerRecord<byte[], byte[]>> received = readDownlink("fresh-node", 1);
        assertThat(received).extracting(r -> utf8(r.value())).containsExactly("to the fresh node");
    }

    @Test
    void a_persistent_session_connecting_on_a_node_wakes_that_node_once_per_connection() {
        LAYOUT.ensureDownlinkTopic(admin, "node-w");
        subscribe(new SubscriptionRecord("wanderer", "wake/a", null, 1, false, false, 0, 1, true));
        subscribe(new SubscriptionRecord("wanderer", "wake/a", "node-w", 1, false, false, 0, 2, true));
        // Changes applied together wake once; wait for that wake before the next connection.
        assertThat(readDownlink("node-w", 1)).hasSize(1);
        subscribe(new SubscriptionRecord("tourist", "wake/a", "node-w", 1, false, false, 0, 1, false));
        subscribe(new SubscriptionRecord("wanderer", "wake/a", "node-w", 1, false, false, 0, 2, true));
        subscribe(new SubscriptionRecord("wanderer", "wake/a", "node-w", 1, false, false, 0, 3, true));

        List<ConsumerRecord<byte[], byte[]>> received = readDownlink("node-w", 2);

        assertThat(received)
                .allSatisfy(r -> assertThat(DownlinkType.fromHeader(
                                RecordHeaders.readBytes(r.headers(), RecordHeaders.DOWNLINK_TYPE)))
                        .isEqualTo(DownlinkType.WAKE));
        // The connection of epoch 2, then that of epoch 3; not the repeated record, not the clean session.
        assertThat(received).extracting(r -> utf8(r.key())).containsExactly("wanderer", "wanderer");
    }

    @Test
    void health_reports_the_loop_up_with_its_partitions() throws Exception {
        String body = awaitBody("/actuator/health", b -> b.contains("\"ownedPartitions\":[0,1,2]"));

        JsonNode routing = JsonMapper.shared().readTree(body).path("components").path("routing");
        assertThat(routing.path("status").asString()).isEqualTo("UP");
        assertThat(routing.path("details").path("state").asString()).isEqualTo("RUNNING");
        assertThat(routing.path("details").path("ownedPartitions").size()).isEqualTo(PUBLISH_PARTITIONS);
    }

    @Test
    void routed_offsets_are_committed_at_most_once_per_interval_and_once_more_after_traffic_stops() throws Exception {
        double commitsBefore = commitTotal();
        long started = System.nanoTime();
        for (int i = 0; i < 100; i++) {
            // One publish at a time, acknowledged before the next: each is polled and routed as a batch of its own.
            publish("paced/topic", "m" + i, "pacer");
            Thread.sleep(5);
        }
        double elapsedSeconds = (System.nanoTime() - started) / 1e9;

        // Everything routed is committed one interval after the last batch, with no further traffic.
        Map<TopicPartition, Long> ends = new java.util.HashMap<>();
        admin.listOffsets(java.util.stream.IntStream.range(0, PUBLISH_PARTITIONS)
                        .boxed()
                        .collect(java.util.stream.Collectors.toMap(
                                p -> new TopicPartition(TopicNames.PUBLISH, p),
                                p -> org.apache.kafka.clients.admin.OffsetSpec.latest())))
                .all()
                .get(WAIT.toMillis(), TimeUnit.MILLISECONDS)
                .forEach((tp, info) -> {
                    if (info.offset() > 0) {
                        ends.put(tp, info.offset());
                    }
                });
        long deadline = System.nanoTime() + WAIT.toNanos();
        Map<TopicPartition, Long> committed = Map.of();
        while (System.nanoTime() < deadline) {
            committed = new java.util.HashMap<>();
            var offsets = admin.listConsumerGroupOffsets("routing-e2e")
                    .partitionsToOffsetAndMetadata()
                    .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            for (TopicPartition tp : ends.keySet()) {
                var offset = offsets.get(tp);
                committed.put(tp, offset == null ? -1L : offset.offset());
            }
            if (committed.equals(ends)) {
                break;
            }
            Thread.sleep(50);
        }
        assertThat(committed).isEqualTo(ends);

        // A commit per routed batch would be about 100 here; the default interval (200 ms) allows one per 200 ms.
        double commits = commitTotal() - commitsBefore;
        assertThat(commits).isGreaterThanOrEqualTo(1).isLessThanOrEqualTo(Math.ceil(elapsedSeconds / 0.2) + 3);
    }

    /** The routers' publish consumer's commits so far, from Kafka's client metrics. */
    private static double commitTotal() throws Exception {
        Matcher m = Pattern.compile(
                        "kafka_consumer_coordinator_commit_total\\{[^}]*client_id=\"tributary-routing-publish-[^}]*} (\\S+)")
                .matcher(awaitBody("/actuator/prometheus", b -> b.contains("kafka_consumer_coordinator_commit_total")));
        assertThat(m.find()).as("commit_total of the publish consumer").isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void kafka_client_metrics_build_info_and_read_only_loggers_are_served() throws Exception {
        // Micrometer's binding of Kafka's own client metrics, tagged with the instance's client ids.
        String scrape = awaitBody(
                "/actuator/prometheus",
                b -> b.contains("kafka_consumer_fetch_manager_records_consumed_total")
                        && b.contains("kafka_producer_record_send_total"));
        assertThat(scrape)
                .containsPattern(
                        "kafka_consumer_fetch_manager_records_consumed_total\\{[^}]*client_id=\"tributary-routing-publish-");
        assertThat(scrape)
                .containsPattern("kafka_producer_record_send_total\\{[^}]*client_id=\"tributary-routing-producer-");

        JsonNode info = JsonMapper.shared().readTree(scrape("/actuator/info"));
        assertThat(info.path("build").path("artifact").asString()).isEqualTo("tributary-routing-service");
        assertThat(info.path("build").path("version").asString()).isNotBlank();

        JsonNode logger = JsonMapper.shared().readTree(scrape("/actuator/loggers/org.apache.kafka"));
        assertThat(logger.path("configuredLevel").asString()).isEqualTo("WARN");
        // The actuator is unauthenticated: a level cannot be changed over HTTP unless explicitly allowed.
        String port = app.getEnvironment().getProperty("local.server.port");
        HttpResponse<String> change = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/loggers/org.apache.kafka"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"configuredLevel\":\"TRACE\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(change.statusCode()).isGreaterThanOrEqualTo(400);
        assertThat(JsonMapper.shared()
                        .readTree(scrape("/actuator/loggers/org.apache.kafka"))
                        .path("configuredLevel")
                        .asString())
                .isEqualTo("WARN");
    }

    /** Topic metadata reaches the broker's cache shortly after creation: the check right after may fail once. */
    private static void ensureSharedTopics() throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                LAYOUT.ensureSharedTopics(admin);
                return;
            } catch (IllegalStateException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private static void subscribe(SubscriptionRecord subscription) {
        send(SubscriptionRecords.upsert(subscription, PUBLISH_PARTITIONS));
    }

    private static void publish(String topic, String payload, String clientId) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(TopicNames.PUBLISH, utf8(topic), utf8(payload));
        record.headers().add(RecordHeaders.CLIENT_ID, RecordHeaders.utf8(clientId));
        send(record);
    }

    private static org.apache.kafka.clients.producer.RecordMetadata send(ProducerRecord<byte[], byte[]> record) {
        try {
            return producer.send(record).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("cannot produce to " + record.topic(), e);
        }
    }

    /** Reads the node's downlink topic from the beginning until {@code expected} records came, then a bit longer. */
    private static List<ConsumerRecord<byte[], byte[]>> readDownlink(String node, int expected) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class))) {
            List<TopicPartition> partitions = consumer.partitionsFor(TopicNames.downlink(node)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            List<ConsumerRecord<byte[], byte[]>> received = new ArrayList<>();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (received.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(received::add);
            }
            // Anything more than expected (a duplicate, say) would show up now.
            long grace = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            while (System.nanoTime() < grace) {
                consumer.poll(Duration.ofMillis(100)).forEach(received::add);
            }
            return received;
        }
    }

    private static String scrape(String path) throws Exception {
        String port = app.getEnvironment().getProperty("local.server.port");
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return response.body();
    }

    private static String awaitBody(String path, java.util.function.Predicate<String> ready) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        String body = scrape(path);
        while (!ready.test(body) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            body = scrape(path);
        }
        return body;
    }

    private static double droppedUnknownNode() {
        return app.getBean(MeterRegistry.class)
                .counter("tributary.routing.dropped", "reason", "unknown_node")
                .count();
    }

    private static double metric(String scrape, String nameAndTags) {
        Matcher m = Pattern.compile("(?m)^" + nameAndTags + " ([0-9.eE+-]+)$").matcher(scrape);
        double total = 0;
        boolean found = false;
        while (m.find()) {
            total += Double.parseDouble(m.group(m.groupCount()));
            found = true;
        }
        assertThat(found).as("metric %s in scrape", nameAndTags).isTrue();
        return total;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
