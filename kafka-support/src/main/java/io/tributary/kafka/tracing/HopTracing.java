package io.tributary.kafka.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.tributary.common.kafka.RecordHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * One span per hop of a message, in the W3C trace context the message carries in its Kafka headers
 * ({@code traceparent}, {@code tracestate}): a hop's span is a child of the context it reads, and its own context
 * replaces it in the headers of what the hop writes onward, so a trace backend shows the hops of one message as one
 * chain. Spans are exported with OTLP over HTTP by the batch span processor's own thread, never by the caller's.
 *
 * <p>Off ({@link #OFF}): no OpenTelemetry object exists, and every call returns {@link Hop#NONE} after one field
 * check, with nothing allocated. A message without a {@code traceparent} gets no span either (starting a trace is
 * {@link #startTrace}'s, for the node that generates trace contexts).
 */
public final class HopTracing implements AutoCloseable {

    public static final HopTracing OFF = new HopTracing(null);

    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
    private static final AttributeKey<String> SERVICE_INSTANCE_ID = AttributeKey.stringKey("service.instance.id");
    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();

    /** Null when off. */
    private final SdkTracerProvider provider;

    private final Tracer tracer;

    private HopTracing(SdkTracerProvider provider) {
        this.provider = provider;
        this.tracer = provider == null ? null : provider.get("io.tributary");
    }

    /**
     * The tracing of a service as configured: {@link #OFF}, or spans of {@code serviceName} (instance
     * {@code instanceId}) exported to the configured endpoint. The caller closes it when the service stops.
     */
    public static HopTracing start(TracingProperties properties, String serviceName, String instanceId) {
        if (!properties.enabled()) {
            return OFF;
        }
        Resource resource = Resource.getDefault()
                .merge(Resource.create(Attributes.of(SERVICE_NAME, serviceName, SERVICE_INSTANCE_ID, instanceId)));
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder()
                .setEndpoint(properties.endpoint())
                .build();
        return using(SdkTracerProvider.builder()
                .setResource(resource)
                // A hop follows the sampled flag of the traceparent it continues; the ratio decides for new traces.
                .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(properties.samplingRatio())))
                .addSpanProcessor(BatchSpanProcessor.builder(exporter)
                        .setScheduleDelay(properties.exportInterval())
                        .build())
                .build());
    }

    /**
     * The instance id of a service's spans: {@code HOSTNAME} (the pod's name on Kubernetes), else the host's name,
     * else {@code fallback}.
     */
    public static String hostName(String fallback) {
        String host = System.getenv("HOSTNAME");
        if (host != null && !host.isBlank()) {
            return host;
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return fallback;
        }
    }

    /** Spans through {@code provider} (tests give one with an exporter of their own). */
    public static HopTracing using(SdkTracerProvider provider) {
        return new HopTracing(provider);
    }

    public boolean enabled() {
        return tracer != null;
    }

    /**
     * Starts the span of a hop as a child of the valid {@code traceparent} in {@code headers} and writes the span's
     * context there instead; {@link Hop#NONE} when off or when there is none (the headers are then left as they are).
     * A sampled-out parent gives a span that is not recorded but still has its own id, written on as the parent.
     */
    public Hop continueTrace(String name, SpanKind kind, Headers headers) {
        if (tracer == null || headers.lastHeader(RecordHeaders.TRACEPARENT) == null) {
            return Hop.NONE;
        }
        Context parent = W3C.extract(Context.root(), headers, HeadersGetter.INSTANCE);
        if (!Span.fromContext(parent).getSpanContext().isValid()) {
            return Hop.NONE;
        }
        return start(name, kind, parent, headers);
    }

    /**
     * Starts a new trace with this hop's span as its root, sampled by the configured ratio, and writes its context to
     * {@code headers}; {@link Hop#NONE} when off.
     */
    public Hop startTrace(String name, SpanKind kind, Headers headers) {
        if (tracer == null) {
            return Hop.NONE;
        }
        return start(name, kind, Context.root(), headers);
    }

    private Hop start(String name, SpanKind kind, Context parent, Headers headers) {
        Span span = tracer.spanBuilder(name).setParent(parent).setSpanKind(kind).startSpan();
        W3C.inject(Context.root().with(span), headers, HeadersSetter.INSTANCE);
        return new Hop(span);
    }

    /** Exports what has ended and stops the exporter, waiting a few seconds at most. */
    @Override
    public void close() {
        if (provider != null) {
            provider.shutdown().join(10, TimeUnit.SECONDS);
        }
    }

    private enum HeadersGetter implements TextMapGetter<Headers> {
        INSTANCE;

        @Override
        public Iterable<String> keys(Headers headers) {
            List<String> keys = new ArrayList<>();
            for (Header h : headers) {
                keys.add(h.key());
            }
            return keys;
        }

        @Override
        public String get(Headers headers, String key) {
            if (headers == null) {
                return null;
            }
            Header h = headers.lastHeader(key);
            return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
        }
    }

    private enum HeadersSetter implements TextMapSetter<Headers> {
        INSTANCE;

        @Override
        public void set(Headers headers, String key, String value) {
            if (headers != null) {
                headers.remove(key);
                headers.add(key, value.getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
