package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import io.tributary.devstack.net.Ports;
import io.tributary.it.support.Clients;
import io.tributary.it.support.ExtraTransport;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.TributaryCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A transport node with the PROXY protocol on (TRIBUTARY_PROXY_PROTOCOL=true), as behind HAProxy or the NLB: every
 * test client connects from 127.0.0.1, and writes a PROXY v2 header (bytes from the specification) naming a documentation
 * address as the client; the per-address connection rate, the block list and the admin API's session view act on that
 * address, not on 127.0.0.1. A connection without a header is closed at once, a silent one after the header timeout.
 * With HAProxy installed, also through a real HAProxy with {@code send-proxy-v2}.
 */
@ExtendWith(LogsOnFailure.class)
class ProxyProtocolTest {

    private static final int IP_BURST = 2;
    private static final long HEADER_TIMEOUT_MS = 2_000;
    private static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private static TributaryCluster cluster;
    private static ExtraTransport node;
    private static AuthApi api;

    @BeforeAll
    static void node() throws Exception {
        cluster = TributaryCluster.shared();
        api = new AuthApi(cluster.sessionApiUrl());
        // One new connection per 100 s from an address once its burst is used: no refill during the test.
        node = cluster.startTransport(
                "it-node-proxy",
                Map.of(
                        "TRIBUTARY_PROXY_PROTOCOL",
                        "true",
                        "TRIBUTARY_PROXY_PROTOCOL_TIMEOUT",
                        HEADER_TIMEOUT_MS + "ms",
                        "MQTT_MAX_CONNECTION_RATE_PER_IP",
                        "0.01",
                        "MQTT_CONNECTION_BURST_PER_IP",
                        IP_BURST));
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    /** A PROXY protocol v2 header, command PROXY over TCP/IPv4, written from the specification. */
    static byte[] v2(String source, int sourcePort) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(V2_SIGNATURE);
        out.write(0x21); // version 2, PROXY
        out.write(0x11); // AF_INET, STREAM
        out.write(0);
        out.write(12);
        out.writeBytes(InetAddress.getByName(source).getAddress());
        out.writeBytes(InetAddress.getByName("10.0.0.1").getAddress());
        out.write(sourcePort >> 8);
        out.write(sourcePort & 0xFF);
        out.write(1883 >> 8);
        out.write(1883 & 0xFF);
        return out.toByteArray();
    }

    /** Version 2, command LOCAL: what a load balancer's health check sends. */
    static byte[] v2Local() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(V2_SIGNATURE);
        out.writeBytes(new byte[] {0x20, 0x00, 0x00, 0x00});
        return out.toByteArray();
    }

    /** Writes the header (if any) and an MQTT 5 CONNECT on a new socket; the CONNACK reason code, -1 if closed. */
    private static int connect(byte[] header, String clientId, List<Socket> open) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", node.mqttPort()), 5_000);
        open.add(socket);
        socket.setSoTimeout(10_000);
        if (header != null) {
            socket.getOutputStream().write(header);
        }
        socket.getOutputStream().write(Mqtt5Packets.connect(clientId, 60));
        InputStream in = socket.getInputStream();
        int first = in.read();
        if (first < 0) {
            return -1;
        }
        assertThat(first).as("CONNACK").isEqualTo(0x20);
        int length = 0;
        for (int shift = 0, b = 0x80; (b & 0x80) != 0; shift += 7) {
            b = in.read();
            length |= (b & 0x7F) << shift;
        }
        return in.readNBytes(length)[1] & 0xFF;
    }

    private static void closeAll(List<Socket> open) throws IOException {
        for (Socket s : open) {
            s.close();
        }
    }

    @Test
    void the_connection_rate_per_address_counts_the_header_source_not_the_socket_peer() throws Exception {
        List<Socket> open = new ArrayList<>();
        double before = LimitsTest.refusals(node, "connection_rate_ip");
        try {
            for (int i = 0; i < IP_BURST; i++) {
                assertThat(connect(v2("203.0.113.10", 40_000 + i), Clients.id("pp-a" + i), open))
                        .as("within 203.0.113.10's burst")
                        .isZero();
            }
            assertThat(connect(v2("203.0.113.10", 40_100), Clients.id("pp-a-over"), open))
                    .as("203.0.113.10 over its rate: 0x9F")
                    .isEqualTo(0x9F);
            // The same socket peer (127.0.0.1), another client address: its own budget.
            assertThat(connect(v2("203.0.113.11", 40_200), Clients.id("pp-b"), open))
                    .isZero();
            // A health check's LOCAL header keeps the peer's address, which has a budget of its own too.
            assertThat(connect(v2Local(), Clients.id("pp-local"), open)).isZero();
        } finally {
            closeAll(open);
        }
        assertThat(LimitsTest.refusals(node, "connection_rate_ip") - before).isEqualTo(1);
    }

    @Test
    void the_block_list_and_the_session_view_see_the_header_source() throws Exception {
        List<Socket> open = new ArrayList<>();
        // A range, so that each attempt comes from an address of its own: the per-address rate must not refuse
        // them before the node has fetched the entry.
        long id = api.send("POST", "/blocklist", "{\"ip\":\"198.51.100.0/26\",\"reason\":\"integration test\"}", 201)
                .path("entry")
                .path("id")
                .asLong();
        try {
            double before = LimitsTest.refusals(node, "blocked_ip");
            // Refused by session-service at once (it gets the header's address with the CONNECT), by the node
            // itself (blocked_ip) once it has fetched the entry.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            for (int host = 1; ; host++) {
                assertThat(connect(v2("198.51.100." + host, 41_000), Clients.id("pp-blk"), open))
                        .as("banned")
                        .isEqualTo(0x8A);
                if (LimitsTest.refusals(node, "blocked_ip") > before) {
                    break;
                }
                assertThat(System.nanoTime()).as("node learned the entry").isLessThan(deadline);
                Thread.sleep(500);
            }
            String clientId = Clients.id("pp-ok");
            assertThat(connect(v2("198.51.100.70", 41_999), clientId, open))
                    .as("another address behind the same peer connects")
                    .isZero();
            JsonNode session = api.session(clientId).path("session");
            assertThat(session.path("remoteAddress").asString()).isEqualTo("/198.51.100.70:41999");
        } finally {
            closeAll(open);
            api.send("DELETE", "/blocklist/" + id, null, 204);
        }
    }

    @Test
    void a_connection_without_a_header_is_closed_at_once_and_a_silent_one_after_the_timeout() throws Exception {
        List<Socket> open = new ArrayList<>();
        try {
            long t0 = System.nanoTime();
            assertThat(connect(null, Clients.id("pp-none"), open))
                    .as("closed without a CONNACK")
                    .isEqualTo(-1);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0))
                    .as("at once, not at the header timeout")
                    .isLessThan(HEADER_TIMEOUT_MS);

            Socket silent = new Socket();
            silent.connect(new InetSocketAddress("127.0.0.1", node.mqttPort()), 5_000);
            open.add(silent);
            silent.setSoTimeout(15_000);
            long t1 = System.nanoTime();
            assertThat(silent.getInputStream().read()).isEqualTo(-1);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1))
                    .as("closed by the header timeout")
                    .isBetween(HEADER_TIMEOUT_MS - 500, HEADER_TIMEOUT_MS + 5_000);
        } finally {
            closeAll(open);
        }
        assertThat(LimitsTest.refusals(node, "proxy_protocol"))
                .as("both counted")
                .isGreaterThanOrEqualTo(2);
        String log = Files.readString(node.process().logFile());
        assertThat(log).contains("Closing connection from /127.0.0.1:");
        assertThat(log).contains("no PROXY protocol header (the connection starts with other data)");
        assertThat(log).contains("no PROXY protocol header within " + HEADER_TIMEOUT_MS + " ms");
    }

    @Test
    void through_haproxy_with_send_proxy_v2_the_node_sees_the_client_address(@TempDir Path dir) throws Exception {
        Path haproxy = Path.of("/usr/sbin/haproxy");
        Assumptions.assumeTrue(Files.isExecutable(haproxy), "HAProxy not installed (an optional check)");
        int port = Ports.freePort();
        Path config = dir.resolve("haproxy.cfg");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "defaults",
                        "  mode tcp",
                        "  timeout connect 5s",
                        "  timeout client 60s",
                        "  timeout server 60s",
                        "frontend mqtt",
                        "  bind 127.0.0.1:" + port,
                        "  default_backend transports",
                        "backend transports",
                        "  server node 127.0.0.1:" + node.mqttPort() + " send-proxy-v2",
                        ""),
                StandardCharsets.US_ASCII);
        Process process = new ProcessBuilder(haproxy.toString(), "-db", "-f", config.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("haproxy.log").toFile())
                .start();
        try {
            awaitListening(port, process, dir.resolve("haproxy.log"));
            String clientId = Clients.id("pp-haproxy");
            Mqtt5BlockingClient client = com.hivemq.client.mqtt.MqttClient.builder()
                    .useMqttVersion5()
                    .identifier(clientId)
                    .transportConfig()
                    .serverAddress(new InetSocketAddress("127.0.0.1", port))
                    .localAddress("127.0.0.7")
                    .applyTransportConfig()
                    .buildBlocking();
            assertThat(client.connect().getReasonCode()).isEqualTo(Mqtt5ConnAckReasonCode.SUCCESS);
            assertThat(api.session(clientId)
                            .path("session")
                            .path("remoteAddress")
                            .asString())
                    .as("HAProxy connects from 127.0.0.1; the node records the client's 127.0.0.7")
                    .startsWith("/127.0.0.7:");
            client.disconnect();
        } finally {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Waits until HAProxy holds the port: a probe connection would go through to the node and spend 127.0.0.1's
     * connection budget, so it tries to bind the port instead.
     */
    private static void awaitListening(int port, Process process, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
                probe.setReuseAddress(false);
                probe.bind(new InetSocketAddress("127.0.0.1", port));
            } catch (IOException bound) {
                return;
            }
            assertThat(process.isAlive())
                    .as("haproxy runs: " + (Files.exists(log) ? Files.readString(log) : ""))
                    .isTrue();
            assertThat(System.nanoTime()).as("haproxy listens").isLessThan(deadline);
            Thread.sleep(100);
        }
    }
}
