package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Misbehaving peers lose their own connection and nothing else. */
@ExtendWith(LogsOnFailure.class)
class BadInputTest {

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void keep_alive_is_enforced_at_one_and_a_half_times() throws Exception {
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
            raw.send(RawMqtt.connect311(id("silent"), 2));
            byte[] connack = raw.readPacket(10_000);
            assertThat(connack).isNotNull();
            assertThat(connack[0] & 0xFF).isEqualTo(0x20);
            assertThat(connack[2]).as("CONNACK accepted").isEqualTo((byte) 0);
            long closedAfter = raw.awaitClosed(10_000);
            assertThat(closedAfter).as("closed after 1.5 x 2 s of silence").isBetween(2_500L, 6_000L);
        }
    }

    @Test
    void malformed_packet_closes_only_that_connection() throws Exception {
        String topic = "it/bad/" + id("t");
        Mqtt5BlockingClient healthy = Clients.hive5(cluster.mqttPort(0), id("healthy"));
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(0), id("pub"));
        healthy.connect();
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = healthy.publishes(MqttGlobalPublishFilter.ALL)) {
            healthy.subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();

            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
                raw.send(RawMqtt.connect311(id("bad"), 60));
                assertThat(raw.readPacket(10_000)).isNotNull();
                // PUBLISH with QoS 3 in its fixed header: malformed by definition.
                raw.send(RawMqtt.packet(0x36, new byte[] {0, 1, 'a', 0, 1}));
                assertThat(raw.awaitClosed(5_000)).as("bad connection closed").isNotNegative();
            }
            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
                raw.send(RawMqtt.connect311(id("wild"), 60));
                assertThat(raw.readPacket(10_000)).isNotNull();
                raw.send(RawMqtt.publishQos0("a/+/b", "x".getBytes(StandardCharsets.UTF_8)));
                assertThat(raw.awaitClosed(5_000))
                        .as("wildcard in PUBLISH topic closes")
                        .isNotNegative();
            }
            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
                raw.send(RawMqtt.connect311(id("utf8"), 60));
                assertThat(raw.readPacket(10_000)).isNotNull();
                // Topic "a/" followed by 0xC3 0x28: not valid UTF-8.
                raw.send(RawMqtt.packet(0x30, new byte[] {0, 4, 'a', '/', (byte) 0xC3, 0x28, 'x'}));
                assertThat(raw.awaitClosed(5_000))
                        .as("topic that is not valid UTF-8 closes")
                        .isNotNegative();
            }
            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
                raw.send(RawMqtt.publishQos0("a/b", new byte[0]));
                assertThat(raw.awaitClosed(5_000))
                        .as("first packet not CONNECT closes")
                        .isNotNegative();
            }
            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
                byte[] connect = RawMqtt.connect311(id("v9"), 60);
                connect[8] = 9; // protocol level 9
                raw.send(connect);
                byte[] connack = raw.readPacket(5_000);
                assertThat(connack).isNotNull();
                assertThat(connack[2]).as("unacceptable protocol version").isEqualTo((byte) 1);
                assertThat(raw.awaitClosed(5_000)).isNotNegative();
            }
            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
                // Remaining length far above the maximum packet size.
                raw.send(new byte[] {0x10, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F});
                assertThat(raw.awaitClosed(5_000)).as("oversized packet closes").isNotNegative();
            }

            publisher
                    .publishWith()
                    .topic(topic)
                    .payload("still here".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            assertThat(in.receive(15, TimeUnit.SECONDS))
                    .as("other clients unaffected")
                    .isPresent();
        } finally {
            publisher.disconnect();
            healthy.disconnect();
        }
    }
}
