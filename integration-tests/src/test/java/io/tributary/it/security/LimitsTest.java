package io.tributary.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5PubAckException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5SubAckException;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.publish.puback.Mqtt5PubAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAck;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;
import io.tributary.it.support.Clients;
import io.tributary.it.support.ExtraTransport;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The limits of a transport node, each refused with its reason code, on two nodes of their own started with small
 * limits (the shared nodes keep the defaults): one for per-client limits, one for connections per node and the
 * connection rate per source address. Independent clients: HiveMQ (MQTT 5), Paho (3.1.1), raw sockets.
 */
@ExtendWith(LogsOnFailure.class)
class LimitsTest {

    private static final int PUBLISH_BURST = 5;
    private static final int MAX_PAYLOAD = 1000;
    private static final int MAX_SUBSCRIPTIONS = 3;
    private static final int MAX_LEVELS = 4;
    private static final int MAX_CONNECTIONS = 2;
    private static final int IP_BURST = 3;

    private static TributaryCluster cluster;
    private static ExtraTransport clientLimits;
    private static ExtraTransport connectionLimits;

    @BeforeAll
    static void nodes() throws Exception {
        cluster = TributaryCluster.shared();
        clientLimits = cluster.startTransport(
                "it-node-limits",
                Map.of(
                        "MQTT_MAX_PUBLISH_RATE", 1,
                        "MQTT_PUBLISH_BURST", PUBLISH_BURST,
                        "MQTT_MAX_PAYLOAD_SIZE", MAX_PAYLOAD,
                        "MQTT_MAX_SUBSCRIPTIONS", MAX_SUBSCRIPTIONS,
                        "MQTT_MAX_TOPIC_LEVELS", MAX_LEVELS));
        // One new connection per 100 s from an address once the burst is used: no refill during the test.
        connectionLimits = cluster.startTransport(
                "it-node-conns",
                Map.of(
                        "MQTT_MAX_CONNECTIONS", MAX_CONNECTIONS,
                        "MQTT_MAX_CONNECTION_RATE_PER_IP", "0.01",
                        "MQTT_CONNECTION_BURST_PER_IP", IP_BURST));
    }

    @AfterAll
    static void stop() {
        if (clientLimits != null) {
            clientLimits.close();
        }
        if (connectionLimits != null) {
            connectionLimits.close();
        }
    }

    static double refusals(ExtraTransport node, String reason) throws Exception {
        return refusals("http://127.0.0.1:" + node.managementPort(), reason);
    }

    /** {@code tributary_limit_refusals_total{reason}} of the transport node serving actuator at {@code httpUrl}. */
    static double refusals(String httpUrl, String reason) throws Exception {
        HttpResponse<String> scrape = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(httpUrl + "/actuator/prometheus"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return scrape.body()
                .lines()
                .filter(l -> l.startsWith("tributary_limit_refusals_total{") && l.contains("reason=\"" + reason + "\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    private static Mqtt5BlockingClient connected(int port, String prefix) {
        Mqtt5BlockingClient client = Clients.hive5(port, Clients.id(prefix));
        client.connect();
        return client;
    }

    @Test
    void publishes_over_the_rate_get_0x97_and_qos0_over_it_is_dropped_while_the_connection_stays() throws Exception {
        String topic = "it/limits/rate/" + Clients.id("t");
        Mqtt5BlockingClient subscriber = connected(cluster.mqttPort(0), "rate-sub");
        Mqtt5BlockingClient publisher = connected(clientLimits.mqttPort(), "rate-pub");
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_MOST_ONCE)
                    .send();
            for (int i = 0; i < 3 * PUBLISH_BURST; i++) {
                publisher
                        .publishWith()
                        .topic(topic)
                        .payload(new byte[] {(byte) i})
                        .qos(MqttQos.AT_MOST_ONCE)
                        .send();
            }
            int delivered = 0;
            while (in.receive(3, TimeUnit.SECONDS).isPresent()) {
                delivered++;
            }
            assertThat(delivered)
                    .as("QoS 0 beyond the burst (and what 1/s refilled) is dropped")
                    .isBetween(PUBLISH_BURST, PUBLISH_BURST + 4);
            // Three seconds of refill at most: the next QoS 1 publishes run out again.
            List<Mqtt5PubAckReasonCode> codes = new ArrayList<>();
            for (int i = 0; i < PUBLISH_BURST + 2; i++) {
                try {
                    publisher
                            .publishWith()
                            .topic(topic)
                            .qos(MqttQos.AT_LEAST_ONCE)
                            .send();
                    codes.add(Mqtt5PubAckReasonCode.SUCCESS);
                } catch (Mqtt5PubAckException e) {
                    codes.add(e.getMqttMessage().getReasonCode());
                }
            }
            assertThat(codes).contains(Mqtt5PubAckReasonCode.QUOTA_EXCEEDED);
            assertThat(publisher.getState().isConnected())
                    .as("refused, not disconnected")
                    .isTrue();
        }
        assertThat(refusals(clientLimits, "publish_rate")).isGreaterThanOrEqualTo(PUBLISH_BURST + 1);
        publisher.disconnect();
        subscriber.disconnect();
    }

    @Test
    void an_mqtt311_client_over_the_rate_with_qos1_is_disconnected() throws Exception {
        MqttClient paho =
                Clients.paho3(clientLimits.mqttPort(), Clients.id("rate3"), MqttConnectOptions.MQTT_VERSION_3_1_1);
        String topic = "it/limits/rate3/" + Clients.id("t");
        assertThatThrownBy(() -> {
                    for (int i = 0; i < 3 * PUBLISH_BURST; i++) {
                        paho.publish(topic, new byte[] {1}, 1, false);
                    }
                })
                .as("no negative acknowledgement in 3.1.1: the connection is closed")
                .isInstanceOf(Exception.class);
        assertThat(paho.isConnected()).isFalse();
        paho.close();
    }

    @Test
    void a_payload_over_the_maximum_gets_0x97_and_one_at_it_is_accepted() {
        Mqtt5BlockingClient client = connected(clientLimits.mqttPort(), "payload");
        String topic = "it/limits/payload/" + Clients.id("t");
        client.publishWith()
                .topic(topic)
                .payload(new byte[MAX_PAYLOAD])
                .qos(MqttQos.AT_LEAST_ONCE)
                .send();
        assertThatThrownBy(() -> client.publishWith()
                        .topic(topic)
                        .payload(new byte[MAX_PAYLOAD + 1])
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send())
                .isInstanceOfSatisfying(
                        Mqtt5PubAckException.class,
                        e -> assertThat(e.getMqttMessage().getReasonCode())
                                .isEqualTo(Mqtt5PubAckReasonCode.QUOTA_EXCEEDED));
        client.disconnect();
    }

    @Test
    void too_many_topic_levels_get_puback_0x90_suback_0x8f_and_3_1_1_suback_0x80() throws Exception {
        Mqtt5BlockingClient client = connected(clientLimits.mqttPort(), "levels");
        client.publishWith().topic("it/levels/a/b").qos(MqttQos.AT_LEAST_ONCE).send();
        assertThatThrownBy(() -> client.publishWith()
                        .topic("it/levels/a/b/c")
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send())
                .isInstanceOfSatisfying(
                        Mqtt5PubAckException.class,
                        e -> assertThat(e.getMqttMessage().getReasonCode())
                                .isEqualTo(Mqtt5PubAckReasonCode.TOPIC_NAME_INVALID));
        assertThatThrownBy(() ->
                        client.subscribeWith().topicFilter("it/levels/+/b/#").send())
                .isInstanceOfSatisfying(
                        Mqtt5SubAckException.class,
                        e -> assertThat(e.getMqttMessage().getReasonCodes())
                                .containsExactly(Mqtt5SubAckReasonCode.TOPIC_FILTER_INVALID));
        client.disconnect();
        try (RawMqtt raw = new RawMqtt(clientLimits.mqttPort())) {
            raw.send(RawMqtt.connect311(Clients.id("levels3"), 60));
            assertThat(raw.readPacket(10_000)[2]).as("CONNACK accepted").isZero();
            raw.send(RawMqtt.subscribe311(7, "it/levels/+/b/#", 1));
            byte[] subAck = raw.readPacket(10_000);
            assertThat(subAck[0] & 0xFF).isEqualTo(0x90);
            assertThat(subAck[3] & 0xFF).isEqualTo(0x80);
        }
        assertThat(refusals(clientLimits, "topic_levels")).isGreaterThanOrEqualTo(3);
    }

    @Test
    void subscriptions_beyond_the_maximum_get_0x97_and_replacing_one_is_allowed() throws Exception {
        Mqtt5BlockingClient client = connected(clientLimits.mqttPort(), "subs");
        String base = "it/subs/" + Clients.id("t") + "/";
        for (int i = 0; i < MAX_SUBSCRIPTIONS; i++) {
            client.subscribeWith()
                    .topicFilter(base + i)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
        }
        assertThatThrownBy(
                        () -> client.subscribeWith().topicFilter(base + "more").send())
                .isInstanceOfSatisfying(
                        Mqtt5SubAckException.class,
                        e -> assertThat(e.getMqttMessage().getReasonCodes())
                                .containsExactly(Mqtt5SubAckReasonCode.QUOTA_EXCEEDED));
        Mqtt5SubAck again = client.subscribeWith()
                .topicFilter(base + "0")
                .qos(MqttQos.EXACTLY_ONCE)
                .send();
        assertThat(again.getReasonCodes()).containsExactly(Mqtt5SubAckReasonCode.GRANTED_QOS_2);
        client.unsubscribeWith().topicFilter(base + "1").send();
        client.subscribeWith().topicFilter(base + "more").send();
        client.disconnect();

        try (RawMqtt raw = new RawMqtt(clientLimits.mqttPort())) {
            raw.send(RawMqtt.connect311(Clients.id("subs3"), 60));
            raw.readPacket(10_000);
            int[] codes = new int[MAX_SUBSCRIPTIONS + 1];
            for (int i = 0; i <= MAX_SUBSCRIPTIONS; i++) {
                raw.send(RawMqtt.subscribe311(i + 1, "it/s3/" + Clients.id("t") + "/" + i, 1));
                codes[i] = raw.readPacket(10_000)[3] & 0xFF;
            }
            assertThat(codes).containsExactly(1, 1, 1, 0x80);
        }
        assertThat(refusals(clientLimits, "subscriptions")).isGreaterThanOrEqualTo(2);
    }

    /** A raw MQTT CONNECT on its own socket; returns the CONNACK reason / return code. */
    private static int rawConnect(int port, byte[] connect, List<Socket> open) throws Exception {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        open.add(socket);
        socket.getOutputStream().write(connect);
        socket.setSoTimeout(10_000);
        var in = socket.getInputStream();
        int first = in.read();
        assertThat(first).as("CONNACK").isEqualTo(0x20);
        int length = 0;
        for (int shift = 0, b = 0x80; (b & 0x80) != 0; shift += 7) {
            b = in.read();
            length |= (b & 0x7F) << shift;
        }
        byte[] body = in.readNBytes(length);
        return body[1] & 0xFF;
    }

    @Test
    void a_client_id_over_256_bytes_gets_0x85_or_2_and_a_user_name_over_1024_bytes_0x86_on_a_default_node()
            throws Exception {
        int port = cluster.mqttPort(0);
        String url = cluster.transportManagementUrl(0);
        double ids = refusals(url, "client_id_length");
        double names = refusals(url, "username_length");
        String prefix = Clients.id("long") + "-";
        List<Socket> open = new ArrayList<>();
        try {
            assertThat(rawConnect(port, RawMqtt.connect311(prefix + "x".repeat(256 - prefix.length()), 60), open))
                    .as("256 bytes: the default limit, accepted")
                    .isZero();
            assertThat(rawConnect(port, RawMqtt.connect311(prefix + "x".repeat(257 - prefix.length()), 60), open))
                    .as("MQTT 3.1.1: identifier rejected")
                    .isEqualTo(2);
            assertThat(rawConnect(
                            port, io.tributary.it.support.Mqtt5Packets.connect(prefix + "x".repeat(60_000), 60), open))
                    .as("MQTT 5: client identifier not valid")
                    .isEqualTo(0x85);
        } finally {
            for (Socket s : open) {
                s.close();
            }
        }
        Mqtt5BlockingClient named = com.hivemq.client.mqtt.mqtt5.Mqtt5Client.builder()
                .identifier(Clients.id("long-name"))
                .serverHost("127.0.0.1")
                .serverPort(port)
                .simpleAuth()
                .username("u".repeat(1025))
                .password("p".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .applySimpleAuth()
                .buildBlocking();
        assertThatThrownBy(named::connect)
                .isInstanceOfSatisfying(
                        com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException.class,
                        e -> assertThat(e.getMqttMessage().getReasonCode())
                                .isEqualTo(Mqtt5ConnAckReasonCode.BAD_USER_NAME_OR_PASSWORD));
        assertThat(refusals(url, "client_id_length")).isEqualTo(ids + 2);
        assertThat(refusals(url, "username_length")).isEqualTo(names + 1);
    }

    @Test
    void connections_over_the_node_maximum_get_0x97_and_over_the_address_rate_0x9f() throws Exception {
        int port = connectionLimits.mqttPort();
        List<Socket> open = new ArrayList<>();
        try {
            // Two connections use two of the address's three tokens.
            assertThat(rawConnect(port, RawMqtt.connect311(Clients.id("c1"), 60), open))
                    .isZero();
            assertThat(rawConnect(port, RawMqtt.connect311(Clients.id("c2"), 60), open))
                    .isZero();
            assertThat(rawConnect(port, io.tributary.it.support.Mqtt5Packets.connect(Clients.id("c3"), 60), open))
                    .as("MQTT 5: quota exceeded")
                    .isEqualTo(0x97);
            assertThat(rawConnect(port, RawMqtt.connect311(Clients.id("c4"), 60), open))
                    .as("MQTT 3.1.1: server unavailable")
                    .isEqualTo(3);
            for (Socket s : open) {
                s.close();
            }
            open.clear();
            // The node's count follows the closes; the refused connections took no token.
            Thread.sleep(500);
            assertThat(rawConnect(port, RawMqtt.connect311(Clients.id("c5"), 60), open))
                    .isZero();
            open.remove(0).close();
            Thread.sleep(500);
            assertThat(rawConnect(port, io.tributary.it.support.Mqtt5Packets.connect(Clients.id("c6"), 60), open))
                    .as("MQTT 5: connection rate exceeded")
                    .isEqualTo(0x9F);
            assertThat(rawConnect(port, RawMqtt.connect311(Clients.id("c7"), 60), open))
                    .isEqualTo(3);
        } finally {
            for (Socket s : open) {
                s.close();
            }
        }
        assertThat(refusals(connectionLimits, "connections")).isEqualTo(2);
        assertThat(refusals(connectionLimits, "connection_rate_ip")).isEqualTo(2);
        // The shared nodes, with the defaults, are not affected.
        Mqtt5BlockingClient elsewhere = Clients.hive5(cluster.mqttPort(1), Clients.id("c8"));
        assertThat(elsewhere.connect().getReasonCode()).isEqualTo(Mqtt5ConnAckReasonCode.SUCCESS);
        elsewhere.disconnect();
    }
}
