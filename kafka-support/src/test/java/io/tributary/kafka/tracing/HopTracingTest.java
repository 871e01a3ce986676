package io.tributary.kafka.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HopTracingTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT = "00f067aa0ba902b7";

    /** A new one per tracer: closing a tracer shuts its exporter down. */
    private InMemorySpanExporter exporter;

    private HopTracing tracing = tracing(Sampler.parentBased(Sampler.alwaysOn()));

    private HopTracing tracing(Sampler sampler) {
        exporter = InMemorySpanExporter.create();
        return HopTracing.using(SdkTracerProvider.builder()
                .setSampler(sampler)
                .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                .build());
    }

    @AfterEach
    void close() {
        tracing.close();
    }

    private static Headers headers(String traceparent) {
        Headers headers = new RecordHeaders();
        headers.add("mqtt.topic", "a/b".getBytes(StandardCharsets.UTF_8));
        if (traceparent != null) {
            headers.add("traceparent", traceparent.getBytes(StandardCharsets.UTF_8));
            headers.add("tracestate", "rojo=1".getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }

    private static String value(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void a_hop_is_a_child_of_the_headers_context_and_writes_its_own_in_its_place() {
        Headers headers = headers("00-" + TRACE_ID + "-" + PARENT + "-01");
        Hop hop = tracing.continueTrace("route", SpanKind.CONSUMER, headers);
        assertThat(exporter.getFinishedSpanItems()).as("exported when it ends").isEmpty();
        hop.end();

        assertThat(exporter.getFinishedSpanItems()).hasSize(1);
        SpanData span = exporter.getFinishedSpanItems().get(0);
        assertThat(span.getName()).isEqualTo("route");
        assertThat(span.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(span.getParentSpanId()).isEqualTo(PARENT);
        assertThat(value(headers, "traceparent")).isEqualTo("00-" + TRACE_ID + "-" + span.getSpanId() + "-01");
        assertThat(value(headers, "tracestate")).isEqualTo("rojo=1");
        assertThat(headers.headers("traceparent")).hasSize(1);
        assertThat(value(headers, "mqtt.topic")).isEqualTo("a/b");
    }

    @Test
    void a_failed_hop_is_marked_failed() {
        tracing.continueTrace("publish", SpanKind.PRODUCER, headers("00-" + TRACE_ID + "-" + PARENT + "-01"))
                .end(new IllegalStateException("not acknowledged"));
        assertThat(exporter.getFinishedSpanItems().get(0).getStatus().getStatusCode())
                .isEqualTo(io.opentelemetry.api.trace.StatusCode.ERROR);
    }

    @Test
    void a_sampled_out_parent_gives_no_span_but_its_trace_goes_on_with_the_hops_id() {
        Headers headers = headers("00-" + TRACE_ID + "-" + PARENT + "-00");
        Hop hop = tracing.continueTrace("route", SpanKind.CONSUMER, headers);
        assertThat(hop.isRecording()).isFalse();
        hop.end();

        assertThat(exporter.getFinishedSpanItems()).isEmpty();
        String written = value(headers, "traceparent");
        assertThat(written).startsWith("00-" + TRACE_ID + "-").endsWith("-00");
        assertThat(written.substring(36, 52)).isNotEqualTo(PARENT);
    }

    @Test
    void no_traceparent_or_an_invalid_one_no_span_and_the_headers_stay_as_they_are() {
        Headers none = headers(null);
        assertThat(tracing.continueTrace("route", SpanKind.CONSUMER, none)).isSameAs(Hop.NONE);
        assertThat(none.toArray()).hasSize(1);

        Headers invalid = headers("00-" + "0".repeat(32) + "-" + PARENT + "-01");
        assertThat(tracing.continueTrace("route", SpanKind.CONSUMER, invalid)).isSameAs(Hop.NONE);
        assertThat(value(invalid, "traceparent")).isEqualTo("00-" + "0".repeat(32) + "-" + PARENT + "-01");
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
    }

    @Test
    void off_does_nothing() {
        Headers headers = headers("00-" + TRACE_ID + "-" + PARENT + "-01");
        assertThat(HopTracing.OFF.enabled()).isFalse();
        assertThat(HopTracing.OFF.continueTrace("route", SpanKind.CONSUMER, headers))
                .isSameAs(Hop.NONE);
        assertThat(HopTracing.OFF.startTrace("publish", SpanKind.PRODUCER, headers))
                .isSameAs(Hop.NONE);
        assertThat(value(headers, "traceparent")).isEqualTo("00-" + TRACE_ID + "-" + PARENT + "-01");
        assertThat(HopTracing.start(TracingProperties.OFF, "s", "i")).isSameAs(HopTracing.OFF);
    }

    @Test
    void enabled_without_an_endpoint_refuses_to_start_and_off_needs_none() {
        assertThatThrownBy(() -> new TracingProperties(true, "", 1.0, java.time.Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TRIBUTARY_TRACING_ENDPOINT");
        assertThat(new TracingProperties(false, "", 1.0, java.time.Duration.ofSeconds(5)).enabled())
                .isFalse();
    }

    @Test
    void a_new_trace_follows_the_ratio_and_is_written_either_way() {
        tracing.close();
        tracing = tracing(Sampler.parentBased(Sampler.traceIdRatioBased(0.0)));
        Headers headers = headers(null);
        Hop hop = tracing.startTrace("publish", SpanKind.PRODUCER, headers);
        hop.end();
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
        // Not sampled: bit 0 of the flags clear (the SDK sets bit 1, W3C level 2's "random trace id").
        assertThat(value(headers, "traceparent")).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-0[02]");

        tracing.close();
        tracing = tracing(Sampler.parentBased(Sampler.traceIdRatioBased(1.0)));
        Headers sampled = headers(null);
        tracing.startTrace("publish", SpanKind.PRODUCER, sampled).end();
        assertThat(exporter.getFinishedSpanItems()).hasSize(1);
        assertThat(exporter.getFinishedSpanItems().get(0).getParentSpanId()).isEqualTo("0000000000000000");
        assertThat(value(sampled, "traceparent"))
                .isEqualTo("00-" + exporter.getFinishedSpanItems().get(0).getTraceId() + "-"
                        + exporter.getFinishedSpanItems().get(0).getSpanId() + "-"
                        + exporter.getFinishedSpanItems()
                                .get(0)
                                .getSpanContext()
                                .getTraceFlags()
                                .asHex());
        assertThat(exporter.getFinishedSpanItems().get(0).getSpanContext().isSampled())
                .isTrue();
    }
}
