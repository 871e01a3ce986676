package io.tributary.perf;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.moquette.broker.Server;
import io.moquette.broker.config.FluentConfig;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real MQTT 3.1.1 broker for the end-to-end tests: Moquette, in this JVM, on an ephemeral port. Where it cannot
 * start the calling test is skipped with the reason.
 */
public final class MoquetteBroker {

    private final Server server;
    private final int port;

    private MoquetteBroker(Server server, int port) {
        this.server = server;
        this.port = port;
    }

    public static MoquetteBroker start(Path dataDir) throws InterruptedException {
        Server server = new Server();
        try {
            new FluentConfig(server)
                    .host("127.0.0.1")
                    .port(0)
                    .dataPath(dataDir.toString())
                    .disablePersistence()
                    .allowAnonymous()
                    .disableTelemetry()
                    .startServer();
        } catch (Exception | LinkageError e) {
            System.err.println("Moquette could not start: " + e);
            assumeTrue(false, "Moquette could not start in this JVM (" + e + "): end-to-end test skipped");
        }
        // Moquette learns its ephemeral port when the bind completes, asynchronously.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int port = port(server);
        while (port <= 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
            port = port(server);
        }
        MoquetteBroker broker = new MoquetteBroker(server, port);
        if (broker.port <= 0) {
            server.stopServer();
            assumeTrue(false, "Moquette did not report its port: end-to-end test skipped");
        }
        return broker;
    }

    /** Moquette 0.17 reads its port map while the bind may still write it: a clash is "not yet". */
    private static int port(Server server) {
        try {
            return server.getPort();
        } catch (java.util.ConcurrentModificationException e) {
            return 0;
        }
    }

    public int port() {
        return port;
    }

    public void stop() {
        server.stopServer();
    }
}
