package io.tributary.it.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A trace collector as small as a test needs: an HTTP server on a free loopback port that takes OTLP/HTTP protobuf
 * export requests at {@code /v1/traces} and keeps their spans, each with the {@code service.name} of its resource.
 */
public final class OtlpReceiver implements AutoCloseable {

    /** One received span; ids in lowercase hex as in a {@code traceparent}, parent empty for a root span. */
    public record ReceivedSpan(String service, String name, String traceId, String spanId, String parentSpanId) {}

    private static final HexFormat HEX = HexFormat.of();

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();

    public OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/traces", this::export);
        server.start();
    }

    /** What a service's {@code TRIBUTARY_TRACING_ENDPOINT} is set to. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces";
    }

    public List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    /** The first span received that {@code match} accepts, waiting up to {@code seconds}. */
    public Optional<ReceivedSpan> await(Predicate<ReceivedSpan> match, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            for (ReceivedSpan s : spans) {
                if (match.test(s)) {
                    return Optional.of(s);
                }
            }
            if (System.nanoTime() > deadline) {
                return Optional.empty();
            }
            Thread.sleep(50);
        }
    }

    private void export(HttpExchange exchange) throws IOException {
        try (exchange;
                InputStream body = exchange.getRequestBody()) {
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body.readAllBytes());
            List<ReceivedSpan> received = new ArrayList<>();
            for (ResourceSpans resource : request.getResourceSpansList()) {
                String service = resource.getResource().getAttributesList().stream()
                        .filter(a -> a.getKey().equals("service.name"))
                        .map(KeyValue::getValue)
                        .map(v -> v.getStringValue())
                        .findFirst()
                        .orElse("");
                for (ScopeSpans scope : resource.getScopeSpansList()) {
                    for (var span : scope.getSpansList()) {
                        received.add(new ReceivedSpan(
                                service,
                                span.getName(),
                                HEX.formatHex(span.getTraceId().toByteArray()),
                                HEX.formatHex(span.getSpanId().toByteArray()),
                                HEX.formatHex(span.getParentSpanId().toByteArray())));
                    }
                }
            }
            spans.addAll(received);
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                exchange.getResponseBody().write(answer);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
