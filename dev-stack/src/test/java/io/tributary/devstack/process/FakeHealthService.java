package io.tributary.devstack.process;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A tiny real HTTP process standing in for a service jar in {@link ServiceProcessTest}: it reports DOWN for its
 * first second, then UP, on {@code /actuator/health}.
 */
public final class FakeHealthService {

    private FakeHealthService() {}

    public static void main(String[] args) throws IOException {
        System.out.println("GREETING=" + System.getenv("GREETING"));
        if ("true".equals(System.getenv("FAIL"))) {
            System.out.println("boom: failing on purpose");
            System.exit(3);
        }
        long upAt = System.currentTimeMillis() + 1000;
        HttpServer server = HttpServer.create(
                new InetSocketAddress("127.0.0.1", Integer.parseInt(System.getenv("MANAGEMENT_PORT"))), 0);
        server.createContext("/actuator/health", exchange -> {
            boolean up = System.currentTimeMillis() >= upAt;
            byte[] body = ("{\"status\":\"" + (up ? "UP" : "DOWN") + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(up ? 200 : 503, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("stopping gracefully");
            server.stop(0);
        }));
    }
}
