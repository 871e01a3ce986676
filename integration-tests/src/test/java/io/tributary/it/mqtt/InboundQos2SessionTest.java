package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Inbound QoS 2 de-duplication outlives the connection of a persistent session (MQTT 4.3.3, 4.4): a publisher that
 * got PUBREC, lost its connection and re-sends the PUBLISH (DUP = 1, same packet id) from the other node is not
 * stored twice, and its PUBREL after the reconnect is answered with PUBCOMP 0x00 (the packet id is known there).
 */
@ExtendWith(LogsOnFailure.class)
class InboundQos2SessionTest {

    private static final int SESSION_EXPIRY = 300;

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void qos2_publish_resent_after_reconnecting_to_the_other_node_is_stored_once_and_pubrel_gets_pubcomp()
            throws Exception {
        String topic = "it/qos2-session/" + id("t");
        String publisherId = id("q2pub");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("q2sub"));
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.EXACTLY_ONCE)
                    .send();
            byte[] publish = Mqtt5Packets.publish(topic, 2, 7, bytes("once"));

            try (RawMqtt first = new RawMqtt(cluster.mqttPort(0))) {
                connect(first, publisherId, true);
                first.send(publish);
                byte[] pubrec = first.readPacket(10_000);
                assertThat(Mqtt5Packets.type(pubrec)).isEqualTo(5);
                assertThat(Mqtt5Packets.reasonCode(pubrec)).isZero();
            } // dropped without DISCONNECT: the session lives on, the exchange is unfinished

            try (RawMqtt second = new RawMqtt(cluster.mqttPort(1))) {
                byte[] connack = connect(second, publisherId, false);
                assertThat(Mqtt5Packets.sessionPresent(connack)).isTrue();
                second.send(Mqtt5Packets.withDup(publish));
                byte[] pubrec = second.readPacket(10_000);
                assertThat(Mqtt5Packets.type(pubrec))
                        .as("the re-sent PUBLISH is acknowledged again")
                        .isEqualTo(5);
                assertThat(Mqtt5Packets.reasonCode(pubrec)).isZero();
                second.send(Mqtt5Packets.pubrel(7));
                byte[] pubcomp = second.readPacket(10_000);
                assertThat(Mqtt5Packets.type(pubcomp)).isEqualTo(7);
                assertThat(Mqtt5Packets.reasonCode(pubcomp))
                        .as("the packet id is known on this node")
                        .isZero();

                // Same publisher, same topic, so same partition: a second copy would arrive before this marker.
                second.send(Mqtt5Packets.publish(topic, 1, 8, bytes("marker")));
                assertThat(Mqtt5Packets.type(second.readPacket(10_000))).isEqualTo(4);
                second.send(Mqtt5Packets.disconnect());
            }

            List<String> got = new ArrayList<>();
            while (!got.contains("marker")) {
                Mqtt5Publish p = in.receive(15, TimeUnit.SECONDS)
                        .orElseThrow(() -> new AssertionError("the marker did not arrive; got " + got));
                got.add(new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8));
            }
            assertThat(got).containsExactly("once", "marker");
        } finally {
            subscriber.disconnect();
        }
    }

    @Test
    void pubrel_after_reconnecting_is_answered_with_pubcomp_and_a_later_publish_with_that_id_is_new() throws Exception {
        String topic = "it/qos2-session/" + id("t");
        String publisherId = id("q2rel");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(1), id("q2sub"));
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.EXACTLY_ONCE)
                    .send();
            try (RawMqtt first = new RawMqtt(cluster.mqttPort(1))) {
                connect(first, publisherId, true);
                first.send(Mqtt5Packets.publish(topic, 2, 9, bytes("first")));
                assertThat(Mqtt5Packets.type(first.readPacket(10_000))).isEqualTo(5);
            }
            try (RawMqtt second = new RawMqtt(cluster.mqttPort(0))) {
                connect(second, publisherId, false);
                // The client had PUBREC, so after reconnecting it continues with PUBREL (MQTT 4.4).
                second.send(Mqtt5Packets.pubrel(9));
                byte[] pubcomp = second.readPacket(10_000);
                assertThat(Mqtt5Packets.type(pubcomp)).isEqualTo(7);
                assertThat(Mqtt5Packets.reasonCode(pubcomp)).isZero();
                // The exchange is over: the id is free, and a new PUBLISH with it is a new message.
                second.send(Mqtt5Packets.publish(topic, 2, 9, bytes("second")));
                assertThat(Mqtt5Packets.type(second.readPacket(10_000))).isEqualTo(5);
                second.send(Mqtt5Packets.pubrel(9));
                assertThat(Mqtt5Packets.reasonCode(second.readPacket(10_000))).isZero();
                // A PUBREL for an id never received is answered 0x92, so the 0x00s above were not by default.
                second.send(Mqtt5Packets.pubrel(10));
                assertThat(Mqtt5Packets.reasonCode(second.readPacket(10_000))).isEqualTo(0x92);
                second.send(Mqtt5Packets.disconnect());
            }
            List<String> got = new ArrayList<>();
            while (got.size() < 2) {
                Mqtt5Publish p =
                        in.receive(15, TimeUnit.SECONDS).orElseThrow(() -> new AssertionError("got only " + got));
                got.add(new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8));
            }
            assertThat(got).containsExactly("first", "second");
        } finally {
            subscriber.disconnect();
        }
    }

    private static byte[] connect(RawMqtt raw, String clientId, boolean cleanStart) throws Exception {
        raw.send(Mqtt5Packets.connectPersistent(clientId, 60, cleanStart, SESSION_EXPIRY));
        byte[] connack = raw.readPacket(10_000);
        assertThat(Mqtt5Packets.type(connack)).isEqualTo(2);
        assertThat(Mqtt5Packets.reasonCode(connack)).isZero();
        return connack;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
