package io.tributary.it.tls;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.tributary.devstack.net.Ports;
import io.tributary.devstack.tls.CertificateAuthority;
import io.tributary.devstack.tls.TlsProbe;
import io.tributary.it.support.ExtraTransport;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A transport node with every listener on but plain MQTT, which is turned off — TLS with required client
 * certificates, WebSocket, secure WebSocket — next to the shared cluster, driven by independent clients (HiveMQ over TLS, Eclipse Paho over WebSocket and
 * secure WebSocket, Paho over plain TCP on a shared node). The CA, the server and the client certificates are made
 * at runtime.
 */
@ExtendWith(LogsOnFailure.class)
class TlsAndWebSocketTest {

    private static TributaryCluster cluster;
    private static ExtraTransport node;
    private static CertificateAuthority ca;
    private static CertificateAuthority.Issued device;
    private static Path dir;
    private static int tlsPort;
    private static int wsPort;
    private static int wssPort;

    @BeforeAll
    static void start() throws Exception {
        cluster = TributaryCluster.shared();
        dir = Files.createTempDirectory(Path.of("target"), "tls-it-").toAbsolutePath();
        ca = CertificateAuthority.create("Tributary IT CA");
        Path caFile = ca.writeCertificate(dir.resolve("ca.crt"));
        CertificateAuthority.Files server = ca.issueServer("tributary-it-1", List.of("localhost", "127.0.0.1"))
                .written(dir, "server");
        device = ca.issueClient("device-1", List.of("device-1.example"));
        tlsPort = Ports.freePort();
        wsPort = Ports.freePort();
        wssPort = Ports.freePort();
        node = cluster.startTransport(
                "it-node-tls",
                Map.of(
                        "MQTT_TLS_PORT",
                        tlsPort,
                        "MQTT_TLS_CERT",
                        server.certificate(),
                        "MQTT_TLS_KEY",
                        server.key(),
                        "MQTT_TLS_CLIENT_AUTH",
                        "required",
                        "MQTT_TLS_CA",
                        caFile,
                        "MQTT_TLS_RELOAD_INTERVAL",
                        "200ms",
                        "MQTT_WS_PORT",
                        wsPort,
                        "MQTT_WSS_PORT",
                        wssPort,
                        "MQTT_PLAIN_ENABLED",
                        "false"));
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    private static Mqtt5BlockingClient hiveTls(String clientId, CertificateAuthority.Issued client) throws Exception {
        var ssl = com.hivemq.client.mqtt.MqttClient.builder()
                .useMqttVersion5()
                .identifier(clientId)
                .serverHost("127.0.0.1")
                .serverPort(tlsPort)
                .sslConfig()
                .trustManagerFactory(ca.trustManagerFactory());
        if (client != null) {
            ssl = ssl.keyManagerFactory(client.keyManagerFactory());
        }
        return ssl.applySslConfig().buildBlocking();
    }

    private static MqttClient paho(String uri, String clientId, SSLContext tls) throws Exception {
        MqttClient client = new MqttClient(uri, clientId, new MemoryPersistence());
        MqttConnectOptions options = new MqttConnectOptions();
        options.setMqttVersion(MqttConnectOptions.MQTT_VERSION_3_1_1);
        options.setCleanSession(true);
        options.setConnectionTimeout(10);
        if (tls != null) {
            options.setSocketFactory(tls.getSocketFactory());
        }
        client.connect(options);
        return client;
    }

    @Test
    void messages_cross_tls_websocket_secure_websocket_and_plain_tcp() throws Exception {
        String topic = "it/tls/" + id("t");
        Mqtt5BlockingClient tls = hiveTls(id("tls"), device);
        tls.connect();
        MqttClient ws = paho("ws://127.0.0.1:" + wsPort + "/mqtt", id("ws"), null);
        MqttClient wss = paho("wss://127.0.0.1:" + wssPort + "/mqtt", id("wss"), ca.clientContext(device));
        // Plain TCP on a shared node: messages also cross nodes through Kafka and routing.
        MqttClient plain = paho("tcp://127.0.0.1:" + cluster.mqttPort(0), id("tcp"), null);
        try {
            BlockingQueue<String> viaTls = new LinkedBlockingQueue<>();
            BlockingQueue<String> viaWs = new LinkedBlockingQueue<>();
            BlockingQueue<String> viaWss = new LinkedBlockingQueue<>();
            BlockingQueue<String> viaPlain = new LinkedBlockingQueue<>();
            tls.toAsync()
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .callback(p -> viaTls.add(new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8)))
                    .send()
                    .get(10, TimeUnit.SECONDS);
            ws.subscribe(topic, 1, (t, m) -> viaWs.add(new String(m.getPayload(), StandardCharsets.UTF_8)));
            wss.subscribe(topic, 1, (t, m) -> viaWss.add(new String(m.getPayload(), StandardCharsets.UTF_8)));
            plain.subscribe(topic, 1, (t, m) -> viaPlain.add(new String(m.getPayload(), StandardCharsets.UTF_8)));

            tls.publishWith()
                    .topic(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload("from-tls".getBytes(StandardCharsets.UTF_8))
                    .send();
            ws.publish(topic, "from-ws".getBytes(StandardCharsets.UTF_8), 1, false);
            wss.publish(topic, "from-wss".getBytes(StandardCharsets.UTF_8), 1, false);
            // A payload larger than one WebSocket frame of most clients' buffers, and than one TLS record.
            String big = "big-" + "x".repeat(40_000);
            plain.publish(topic, big.getBytes(StandardCharsets.UTF_8), 1, false);

            Set<String> all = Set.of("from-tls", "from-ws", "from-wss", big);
            for (BlockingQueue<String> received : List.of(viaTls, viaWs, viaWss, viaPlain)) {
                List<String> got = new java.util.ArrayList<>();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (got.size() < all.size() && System.nanoTime() < deadline) {
                    String m = received.poll(200, TimeUnit.MILLISECONDS);
                    if (m != null) {
                        got.add(m);
                    }
                }
                assertThat(Set.copyOf(got)).isEqualTo(all);
                assertThat(got).hasSize(all.size());
            }
        } finally {
            tls.disconnect();
            ws.disconnect();
            wss.disconnect();
            plain.disconnect();
        }
    }

    /**
     * Issue 34: a web page of another origin cannot open MQTT over WebSocket (the node keeps the default, same-origin
     * pages only); a same-origin page and a client without Origin can. The refusal is counted.
     */
    @Test
    void a_websocket_upgrade_from_another_origin_is_refused_with_403() throws Exception {
        assertThat(upgrade("http://evil.example")).startsWith("HTTP/1.1 403");
        assertThat(upgrade("http://127.0.0.1:" + wsPort)).startsWith("HTTP/1.1 101");
        assertThat(upgrade(null)).startsWith("HTTP/1.1 101");
        String metrics = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(
                                        "http://127.0.0.1:" + node.managementPort() + "/actuator/prometheus"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        assertThat(metrics)
                .containsPattern("tributary_limit_refusals_total\\{[^}]*reason=\"websocket_origin\"[^}]*} 1\\.0");
    }

    /** A raw HTTP upgrade to the WebSocket listener; the status line of the answer. */
    private static String upgrade(String origin) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", wsPort)) {
            socket.setSoTimeout(10_000);
            String request = "GET /mqtt HTTP/1.1\r\nHost: 127.0.0.1:" + wsPort + "\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: mqtt\r\n"
                    + (origin == null ? "" : "Origin: " + origin + "\r\n") + "\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            return in.readLine();
        }
    }

    /** With {@code MQTT_PLAIN_ENABLED=false} nothing listens on the node's MQTT port: no CONNECT in clear reaches it. */
    @Test
    void the_plain_listener_can_be_turned_off() {
        assertThatThrownBy(() -> new Socket("127.0.0.1", node.mqttPort()).close())
                .isInstanceOf(java.net.ConnectException.class);
    }

    @Test
    void required_client_certificates_refuse_clients_without_a_trusted_one() throws Exception {
        assertThatThrownBy(() -> hiveTls(id("nocert"), null).connect()).isInstanceOf(RuntimeException.class);
        CertificateAuthority rogue = CertificateAuthority.create("Rogue CA");
        CertificateAuthority.Issued forged = rogue.issueClient("device-1", List.of());
        assertThatThrownBy(() -> hiveTls(id("rogue"), forged).connect()).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> paho("wss://127.0.0.1:" + wssPort + "/mqtt", id("wssno"), ca.clientContext(null)))
                .isInstanceOf(Exception.class);

        Mqtt5BlockingClient good = hiveTls(id("good"), device);
        assertThat(good.connect().getReasonCode().isError()).isFalse();
        good.disconnect();
    }

    @Test
    void only_tls_1_2_and_1_3_are_served() throws Exception {
        for (String protocol : List.of("TLSv1.2", "TLSv1.3")) {
            try (SSLSocket socket = handshake(protocol)) {
                assertThat(socket.getSession().getProtocol()).isEqualTo(protocol);
            }
        }
        // A ServerHello would start with 0x16; the node must answer with an alert (0x15) or close.
        assertThat(TlsProbe.answerToTls11Hello(tlsPort)).isIn(0x15, -1);
    }

    @Test
    void new_connections_get_a_replaced_certificate_without_a_restart() throws Exception {
        Mqtt5BlockingClient before = hiveTls(id("before"), device);
        before.connect();
        try {
            try (SSLSocket socket = handshake(null)) {
                assertThat(peer(socket)).contains("CN=tributary-it-1");
            }
            ca.issueServer("tributary-it-2", List.of("localhost", "127.0.0.1")).written(dir, "server");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            String seen;
            do {
                Thread.sleep(200);
                try (SSLSocket socket = handshake(null)) {
                    seen = peer(socket);
                }
            } while (!seen.contains("CN=tributary-it-2") && System.nanoTime() < deadline);
            assertThat(seen).contains("CN=tributary-it-2");
            // The connection made before the change lives on.
            before.publishWith()
                    .topic("it/tls/" + id("still"))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload(new byte[1])
                    .send();
        } finally {
            before.disconnect();
        }
    }

    private static SSLSocket handshake(String protocol) throws Exception {
        SSLSocket socket =
                (SSLSocket) ca.clientContext(device).getSocketFactory().createSocket("127.0.0.1", tlsPort);
        socket.setSoTimeout(10_000);
        if (protocol != null) {
            socket.setEnabledProtocols(new String[] {protocol});
        }
        socket.startHandshake();
        return socket;
    }

    private static String peer(SSLSocket socket) throws Exception {
        return ((X509Certificate) socket.getSession().getPeerCertificates()[0])
                .getSubjectX500Principal()
                .getName();
    }
}
