package io.tributary.transport.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.tributary.kafka.tracing.Hop;
import io.tributary.kafka.tracing.HopTracing;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PublishTracingTest {

    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final HopTracing tracing = HopTracing.using(SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter))
            .build());

    @AfterEach
    void close() {
        tracing.close();
    }

    private static ProducerRecord<byte[], byte[]> record(String traceparent) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>("tributary.publish", new byte[] {1}, null);
        if (traceparent != null) {
            record.headers().add("traceparent", traceparent.getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }

    private static String traceparent(ProducerRecord<byte[], byte[]> record) {
        Header h = record.headers().lastHeader("traceparent");
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void the_publish_span_continues_the_publishers_trace_and_is_the_records_parent() {
        ProducerRecord<byte[], byte[]> record = record(TRACEPARENT);
        new PublishTracing(tracing, false).begin(record, "a/b", "c1").end();

        SpanData span = exporter.getFinishedSpanItems().get(0);
        assertThat(span.getName()).isEqualTo("publish");
        assertThat(span.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(span.getAttributes().get(PublishTracing.MQTT_TOPIC)).isEqualTo("a/b");
        assertThat(span.getAttributes().get(PublishTracing.MQTT_CLIENT_ID)).isEqualTo("c1");
        assertThat(traceparent(record)).isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-" + span.getSpanId() + "-01");
    }

    @Test
    void without_a_traceparent_a_trace_starts_only_when_generation_is_on() {
        ProducerRecord<byte[], byte[]> untraced = record(null);
        assertThat(new PublishTracing(tracing, false).begin(untraced, "a/b", "c1"))
                .isSameAs(Hop.NONE);
        assertThat(traceparent(untraced)).isNull();

        ProducerRecord<byte[], byte[]> generated = record(null);
        new PublishTracing(tracing, true).begin(generated, "a/b", "c1").end();
        SpanData root = exporter.getFinishedSpanItems().get(0);
        assertThat(root.getParentSpanId()).isEqualTo("0000000000000000");
        assertThat(traceparent(generated))
                .isEqualTo("00-" + root.getTraceId() + "-" + root.getSpanId() + "-"
                        + root.getSpanContext().getTraceFlags().asHex());
    }

    @Test
    void with_tracing_off_generation_writes_a_random_sampled_traceparent_and_no_span() {
        ProducerRecord<byte[], byte[]> record = record(null);
        assertThat(new PublishTracing(HopTracing.OFF, true).begin(record, "a/b", "c1"))
                .isSameAs(Hop.NONE);
        assertThat(traceparent(record)).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");

        ProducerRecord<byte[], byte[]> traced = record(TRACEPARENT);
        assertThat(PublishTracing.OFF.begin(traced, "a/b", "c1")).isSameAs(Hop.NONE);
        assertThat(traceparent(traced)).isEqualTo(TRACEPARENT);
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
    }
}
