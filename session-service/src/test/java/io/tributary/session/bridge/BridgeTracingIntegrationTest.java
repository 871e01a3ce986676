package io.tributary.session.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.tributary.common.kafka.KafkaClients;
import io.tributary.common.kafka.TopicNames;
import io.tributary.kafka.tracing.HopTracing;
import io.tributary.session.ServiceTestBase;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.support.FeedReader;
import io.tributary.session.support.TestEngines;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The {@code bridge} span of a Kafka-to-MQTT rule (issue 16): a record a backend produced with a {@code traceparent}
 * gets a span under the backend's span, and that span becomes the parent on the publish record, so the route and
 * deliver spans after it join the backend's trace as one chain. Real Kafka; the spans go to an in-memory exporter.
 */
@Order(3)
class BridgeTracingIntegrationTest extends ServiceTestBase {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String BACKEND_SPAN = "00f067aa0ba902b7";

    @Autowired
    KafkaClients kafkaClients;

    @Autowired
    RecordSender sender;

    @Autowired
    Admin admin;

    @Test
    void a_traced_record_gets_a_bridge_span_under_the_backends_and_the_publish_record_carries_it() throws Exception {
        String userTopic = "bridge-trace-" + System.nanoTime();
        admin.createTopics(List.of(new NewTopic(userTopic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        String mqttTopic = "traced/dev-" + System.nanoTime() + "/commands";
        BridgeRule rule = new BridgeRule(9_001, userTopic, mqttTopic, 1, false, Instant.now());
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                .build();
        KafkaBridge bridge = new KafkaBridge(rule, kafkaClients, sender, HopTracing.using(provider));
        bridge.start();
        try (KafkaProducer<byte[], byte[]> backend = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestEngines.kafkaBootstrap()),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            // A new rule's group starts at the end of its topic: produce until the bridge has read one.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (exporter.getFinishedSpanItems().isEmpty()) {
                assertThat(System.nanoTime()).as("a bridge span within 60 s").isLessThan(deadline);
                ProducerRecord<byte[], byte[]> command = new ProducerRecord<>(userTopic, utf8("dev"), utf8("unlock"));
                command.headers().add("traceparent", utf8("00-" + TRACE_ID + "-" + BACKEND_SPAN + "-01"));
                backend.send(command).get(10, TimeUnit.SECONDS);
                Thread.sleep(300);
            }
        } finally {
            bridge.requestStop();
        }

        List<SpanData> spans = exporter.getFinishedSpanItems();
        for (SpanData span : spans) {
            assertThat(span.getName()).isEqualTo("bridge");
            assertThat(span.getKind()).isEqualTo(SpanKind.CONSUMER);
            assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
            assertThat(span.getParentSpanId()).as("the backend's span").isEqualTo(BACKEND_SPAN);
            assertThat(span.getAttributes().asMap().toString())
                    .contains(userTopic)
                    .contains(mqttTopic);
        }
        List<ConsumerRecord<byte[], byte[]>> published =
                FeedReader.readAll(TestEngines.kafkaBootstrap(), TopicNames.PUBLISH).stream()
                        .filter(r -> new String(r.key(), StandardCharsets.UTF_8).equals(mqttTopic))
                        .toList();
        assertThat(published).isNotEmpty();
        Header traceparent = published.get(0).headers().lastHeader("traceparent");
        assertThat(new String(traceparent.value(), StandardCharsets.UTF_8))
                .as("a bridge span is the publish record's parent")
                .isIn(spans.stream()
                        .map(s -> "00-" + TRACE_ID + "-" + s.getSpanId() + "-01")
                        .toList());
        provider.close();
    }
}
