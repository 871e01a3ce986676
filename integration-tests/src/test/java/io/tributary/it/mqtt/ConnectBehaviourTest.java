package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static io.tributary.it.support.Clients.paho3;
import static io.tributary.it.support.Clients.paho3Options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.paho.client.mqttv3.IMqttMessageListener;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** CONNECT across protocol levels: MQTT 3.1, server-assigned client ids, server keep alive, authentication. */
@ExtendWith(LogsOnFailure.class)
class ConnectBehaviourTest {

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void mqtt31_clients_publish_and_subscribe_across_nodes() throws Exception {
        String topic = "it/v31/" + id("t");
        BlockingQueue<MqttMessage> received = new LinkedBlockingQueue<>();
        MqttClient subscriber = paho3(cluster.mqttPort(0), id("s31"), MqttConnectOptions.MQTT_VERSION_3_1);
        MqttClient publisher = paho3(cluster.mqttPort(1), id("p31"), MqttConnectOptions.MQTT_VERSION_3_1);
        try {
            subscriber.subscribe(topic, 1, (IMqttMessageListener) (t, m) -> received.add(m));
            publisher.publish(topic, new byte[] {3, 1}, 1, false);
            MqttMessage m = received.poll(15, TimeUnit.SECONDS);
            assertThat(m).as("delivered to an MQTT 3.1 subscriber").isNotNull();
            assertThat(m.getPayload()).containsExactly(3, 1);
            assertThat(m.getQos()).isEqualTo(1);
        } finally {
            publisher.disconnect();
            subscriber.disconnect();
        }
    }

    @Test
    void mqtt31_client_id_longer_than_23_characters_is_rejected() throws Exception {
        MqttClient client =
                new MqttClient("tcp://127.0.0.1:" + cluster.mqttPort(0), "x".repeat(24), new MemoryPersistence());
        assertThatThrownBy(() -> client.connect(paho3Options(MqttConnectOptions.MQTT_VERSION_3_1)))
                .isInstanceOfSatisfying(
                        MqttException.class,
                        e -> assertThat(e.getReasonCode()).isEqualTo(MqttException.REASON_CODE_INVALID_CLIENT_ID));
        client.close();
    }

    @Test
    void mqtt5_empty_client_id_gets_an_assigned_client_identifier() {
        Mqtt5BlockingClient client = com.hivemq.client.mqtt.MqttClient.builder()
                .useMqttVersion5()
                .serverHost("127.0.0.1")
                .serverPort(cluster.mqttPort(1))
                .buildBlocking();
        Mqtt5ConnAck ack = client.connect();
        try {
            String assigned = ack.getAssignedClientIdentifier()
                    .map(Object::toString)
                    .orElseThrow(() -> new AssertionError("no Assigned Client Identifier in CONNACK"));
            assertThat(assigned).isNotEmpty();
            assertThat(client.getConfig().getClientIdentifier().map(Object::toString))
                    .contains(assigned);
        } finally {
            client.disconnect();
        }
    }

    @Test
    void mqtt311_empty_client_id_is_accepted_with_clean_session_and_works() throws Exception {
        String topic = "it/noid/" + id("t");
        BlockingQueue<MqttMessage> received = new LinkedBlockingQueue<>();
        MqttClient client = paho3(cluster.mqttPort(0), "", MqttConnectOptions.MQTT_VERSION_3_1_1);
        try {
            client.subscribe(topic, 1, (IMqttMessageListener) (t, m) -> received.add(m));
            client.publish(topic, "self".getBytes(StandardCharsets.UTF_8), 1, false);
            assertThat(received.poll(15, TimeUnit.SECONDS))
                    .as("a client without id still gets messages")
                    .isNotNull();
        } finally {
            client.disconnect();
        }
    }

    @Test
    void mqtt311_empty_client_id_without_clean_session_is_refused_0x02() throws Exception {
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(1))) {
            raw.send(RawMqtt.connect311("", 60, false));
            byte[] connack = raw.readPacket(10_000);
            assertThat(connack).isNotNull();
            assertThat(connack[0] & 0xFF).isEqualTo(0x20);
            assertThat(connack[2]).as("identifier rejected").isEqualTo((byte) 0x02);
            assertThat(raw.awaitClosed(5_000)).isNotNegative();
        }
    }

    @Test
    void keep_alive_above_the_nodes_maximum_is_lowered_with_server_keep_alive() {
        int maximum = cluster.maxKeepAliveSeconds(1);
        Mqtt5BlockingClient tooLong = hive5(cluster.mqttPort(1), id("ka"));
        Mqtt5ConnAck ack = tooLong.connectWith().keepAlive(maximum + 100).send();
        tooLong.disconnect();
        assertThat(ack.getServerKeepAlive()).hasValue(maximum);

        Mqtt5BlockingClient none = hive5(cluster.mqttPort(1), id("ka0"));
        ack = none.connectWith().noKeepAlive().send();
        none.disconnect();
        assertThat(ack.getServerKeepAlive())
                .as("'no keep alive' is not allowed below the protocol maximum")
                .hasValue(maximum);

        Mqtt5BlockingClient within = hive5(cluster.mqttPort(1), id("ka1"));
        ack = within.connectWith().keepAlive(maximum - 1).send();
        within.disconnect();
        assertThat(ack.getServerKeepAlive())
                .as("a keep alive within the maximum is kept")
                .isEmpty();

        Mqtt5BlockingClient defaultNode = hive5(cluster.mqttPort(0), id("ka2"));
        ack = defaultNode.connectWith().keepAlive(maximum + 100).send();
        defaultNode.disconnect();
        assertThat(ack.getServerKeepAlive())
                .as("node 0 runs with the protocol maximum")
                .isEmpty();
    }

    @Test
    void unsupported_authentication_method_is_refused_0x8c() throws Exception {
        org.eclipse.paho.mqttv5.client.MqttClient client = new org.eclipse.paho.mqttv5.client.MqttClient(
                "tcp://127.0.0.1:" + cluster.mqttPort(0),
                id("auth"),
                new org.eclipse.paho.mqttv5.client.persist.MemoryPersistence());
        MqttConnectionOptions options = new MqttConnectionOptions();
        options.setAuthMethod("SCRAM-SHA-256");
        options.setAuthData(new byte[] {1, 2, 3});
        options.setConnectionTimeout(10);
        try {
            assertThatThrownBy(() -> client.connect(options))
                    .isInstanceOfSatisfying(
                            org.eclipse.paho.mqttv5.common.MqttException.class,
                            e -> assertThat(e.getReasonCode()).isEqualTo(0x8C));
        } finally {
            client.close();
        }
    }

    @Test
    void raw_connect_with_an_authentication_method_gets_connack_0x8c_and_is_closed() throws Exception {
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
            raw.send(Mqtt5Packets.connect(id("auth"), 60, Mqtt5Packets.Property.authenticationMethod("SCRAM-SHA-1")));
            byte[] connack = raw.readPacket(10_000);
            assertThat(Mqtt5Packets.type(connack)).isEqualTo(2);
            assertThat(Mqtt5Packets.reasonCode(connack))
                    .as("Bad authentication method")
                    .isEqualTo(0x8C);
            assertThat(raw.awaitClosed(5_000)).isNotNegative();
        }
    }

    @Test
    void auth_packet_without_an_authentication_method_is_a_protocol_error() throws Exception {
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(1))) {
            raw.send(Mqtt5Packets.connect(id("auth"), 60));
            assertThat(Mqtt5Packets.reasonCode(raw.readPacket(10_000)))
                    .as("CONNACK accepted")
                    .isZero();
            raw.send(RawMqtt.packet(0xF0, new byte[] {0x18, 0})); // AUTH, continue authentication
            byte[] disconnect = raw.readPacket(10_000);
            assertThat(Mqtt5Packets.type(disconnect)).isEqualTo(14);
            assertThat(Mqtt5Packets.reasonCode(disconnect)).isEqualTo(0x82);
            assertThat(raw.awaitClosed(5_000)).isNotNegative();
        }
    }
}
