package io.tributary.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real HTTP server on an ephemeral loopback port standing in for session-service: it answers each
 * {@code "METHOD /path?query"} with the status and body it was given (404 otherwise) and keeps the requests it got.
 */
final class ApiServer implements AutoCloseable {

    record Request(String method, String pathAndQuery, Map<String, List<String>> headers, String body) {
        String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }
    }

    private record Answer(int status, String body) {}

    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    ApiServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    ApiServer answer(String methodAndPath, int status, String body) {
        answers.put(methodAndPath, new Answer(status, body));
        return this;
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    Request only() {
        if (requests.size() != 1) {
            throw new AssertionError("expected one request, got " + requests);
        }
        return requests.get(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getRawQuery();
        String pathAndQuery = exchange.getRequestURI().getRawPath() + (query == null ? "" : "?" + query);
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        requests.add(
                new Request(exchange.getRequestMethod(), pathAndQuery, Map.copyOf(exchange.getRequestHeaders()), body));
        Answer answer = answers.getOrDefault(
                exchange.getRequestMethod() + " " + pathAndQuery, new Answer(404, "{\"error\":\"no route\"}"));
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0) {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
        }
        exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
