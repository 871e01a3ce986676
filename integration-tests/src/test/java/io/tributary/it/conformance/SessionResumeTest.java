package io.tributary.it.conformance;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.Mqtt5Packets.Property;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MQTT 5 session resumption when the reconnecting client asks for a shorter session (3.1.2.4, 3.1.2.11.2): Clean
 * Start 0 resumes the stored session whatever Session Expiry Interval the new CONNECT carries; its queued and
 * unacknowledged messages are delivered on the new connection, and only when that connection ends does the session
 * end with the new expiry. The reconnect goes to the other transport node.
 */
@ExtendWith(LogsOnFailure.class)
class SessionResumeTest {

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void resume_with_clean_start_0_and_no_session_expiry_delivers_queued_and_inflight_messages() throws Exception {
        String clientId = id("resume0");
        String topic = "it/resume/" + id("t");
        List<byte[]> payloads = subscribeLeaveWithOneUnacknowledgedAndQueueThree(clientId, topic);
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(1))) {
            Wire wire = new Wire(raw);
            // No Session Expiry Interval property: 0, the session ends with this connection.
            raw.send(Mqtt5Packets.connect(clientId, 30, false));
            byte[] connack = wire.awaitType(Wire.CONNACK, 10_000);
            assertThat(Mqtt5Packets.sessionPresent(connack))
                    .as("session present")
                    .isTrue();
            for (byte[] payload : payloads) {
                byte[] publish = wire.await(Wire.publishWithPayload(payload, true), 10_000);
                assertThat(publish)
                        .as("'%s' delivered on the resumed connection", new String(payload, StandardCharsets.UTF_8))
                        .isNotNull();
                raw.send(Mqtt5Packets.puback(Mqtt5Packets.parsePublish(publish).packetId()));
            }
            raw.send(Mqtt5Packets.disconnect());
        }
        // Expiry 0 at the last connection: the session ended with it.
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
            Wire wire = new Wire(raw);
            raw.send(Mqtt5Packets.connect(clientId, 30, false, Property.sessionExpiryInterval(300)));
            byte[] connack = wire.awaitType(Wire.CONNACK, 10_000);
            assertThat(Mqtt5Packets.sessionPresent(connack))
                    .as("session ended with the expiry-0 connection")
                    .isFalse();
            raw.send(Mqtt5Packets.disconnect());
        }
    }

    @Test
    void resume_with_a_lower_session_expiry_delivers_queued_and_inflight_messages() throws Exception {
        String clientId = id("resume5");
        String topic = "it/resume/" + id("t");
        List<byte[]> payloads = subscribeLeaveWithOneUnacknowledgedAndQueueThree(clientId, topic);
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(1))) {
            Wire wire = new Wire(raw);
            raw.send(Mqtt5Packets.connect(clientId, 30, false, Property.sessionExpiryInterval(5)));
            byte[] connack = wire.awaitType(Wire.CONNACK, 10_000);
            assertThat(Mqtt5Packets.sessionPresent(connack))
                    .as("session present")
                    .isTrue();
            for (byte[] payload : payloads) {
                byte[] publish = wire.await(Wire.publishWithPayload(payload, true), 10_000);
                assertThat(publish)
                        .as("'%s' delivered on the resumed connection", new String(payload, StandardCharsets.UTF_8))
                        .isNotNull();
                raw.send(Mqtt5Packets.puback(Mqtt5Packets.parsePublish(publish).packetId()));
            }
            raw.send(Mqtt5Packets.disconnect());
        }
    }

    @Test
    void resume_with_no_session_expiry_completes_a_qos2_exchange_begun_before_the_reconnect() throws Exception {
        String clientId = id("resumeq2");
        String topic = "it/resume/" + id("q2");
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
            Wire wire = new Wire(raw);
            raw.send(Mqtt5Packets.connect(clientId, 30, true, Property.sessionExpiryInterval(300)));
            assertThat(wire.awaitType(Wire.CONNACK, 10_000)).as("CONNACK").isNotNull();
            raw.send(Mqtt5Packets.publish(topic, 2, 7, new byte[] {7}));
            assertThat(wire.awaitType(Wire.PUBREC, 10_000)).as("PUBREC").isNotNull();
            // Gone mid-exchange: no PUBREL, no DISCONNECT.
        }
        Thread.sleep(1_000);
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(1))) {
            Wire wire = new Wire(raw);
            raw.send(Mqtt5Packets.connect(clientId, 30, false));
            assertThat(Mqtt5Packets.sessionPresent(wire.awaitType(Wire.CONNACK, 10_000)))
                    .as("session present")
                    .isTrue();
            raw.send(Mqtt5Packets.pubrel(7));
            byte[] pubcomp = wire.awaitType(Wire.PUBCOMP, 10_000);
            assertThat(pubcomp).as("PUBCOMP").isNotNull();
            assertThat(Mqtt5Packets.reasonCode(pubcomp))
                    .as("packet id known to the resumed session, not 0x92")
                    .isZero();
            raw.send(Mqtt5Packets.disconnect());
        }
    }

    /**
     * Connects with expiry 300 s, subscribes at QoS 1, receives one message without acknowledging it, leaves with a
     * normal DISCONNECT; then three more are published. Returns the four payloads in order.
     */
    private static List<byte[]> subscribeLeaveWithOneUnacknowledgedAndQueueThree(String clientId, String topic)
            throws Exception {
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            payloads.add((clientId + "-" + i).getBytes(StandardCharsets.UTF_8));
        }
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(1), id("resume-pub"));
        publisher.connect();
        try {
            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
                Wire wire = new Wire(raw);
                raw.send(Mqtt5Packets.connect(clientId, 30, true, Property.sessionExpiryInterval(300)));
                assertThat(wire.awaitType(Wire.CONNACK, 10_000)).as("CONNACK").isNotNull();
                raw.send(Mqtt5Packets.subscribe(1, topic, 1));
                assertThat(wire.awaitType(Wire.SUBACK, 10_000)).as("SUBACK").isNotNull();
                publisher
                        .publishWith()
                        .topic(topic)
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .payload(payloads.get(0))
                        .send();
                assertThat(wire.await(Wire.publishWithPayload(payloads.get(0), true), 10_000))
                        .as("first message delivered live (left unacknowledged)")
                        .isNotNull();
                raw.send(Mqtt5Packets.disconnect());
                wire.awaitClose(5_000);
            }
            for (int i = 1; i < 4; i++) {
                publisher
                        .publishWith()
                        .topic(topic)
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .payload(payloads.get(i))
                        .send();
            }
        } finally {
            publisher.disconnect();
        }
        // The routers append to the session queue asynchronously; give them a moment, as a real client's reconnect
        // would take.
        Thread.sleep(1_000);
        return payloads;
    }
}
