package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5PublishResult;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** QoS 2 end to end across nodes, QoS downgrade, and inbound de-duplication of a re-sent QoS 2 PUBLISH. */
@ExtendWith(LogsOnFailure.class)
class QualityOfServiceTest {

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private static byte[] payload(int i) {
        // Binary on purpose: every byte value shows up across the messages.
        byte[] b = new byte[64 + i];
        for (int j = 0; j < b.length; j++) {
            b[j] = (byte) (i * 31 + j * 7);
        }
        return b;
    }

    @Test
    void qos2_in_both_directions_delivers_each_message_exactly_once_with_its_payload() throws Exception {
        String topic = "it/qos2/" + id("t");
        int count = 20;
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("sub"));
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        subscriber.connect();
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.EXACTLY_ONCE)
                    .send();
            for (int i = 0; i < count; i++) {
                Mqtt5PublishResult result = publisher
                        .publishWith()
                        .topic(topic)
                        .payload(payload(i))
                        .qos(MqttQos.EXACTLY_ONCE)
                        .send();
                assertThat(result.getError())
                        .as("PUBREC/PUBCOMP exchange of message " + i)
                        .isEmpty();
            }
            List<byte[]> received = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Mqtt5Publish p = in.receive(15, TimeUnit.SECONDS)
                        .orElseThrow(() -> new AssertionError("only " + received.size() + " messages arrived"));
                assertThat(p.getQos()).isEqualTo(MqttQos.EXACTLY_ONCE);
                received.add(p.getPayloadAsBytes());
            }
            assertThat(in.receive(1, TimeUnit.SECONDS)).as("no duplicate").isEmpty();
            for (int i = 0; i < count; i++) {
                assertThat(received.get(i))
                        .as("message " + i + " in order, payload intact")
                        .isEqualTo(payload(i));
            }
        } finally {
            publisher.disconnect();
            subscriber.disconnect();
        }
    }

    @Test
    void qos2_publish_to_a_qos1_subscription_arrives_at_qos1() throws Exception {
        String topic = "it/downgrade/" + id("t");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("sub"));
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        subscriber.connect();
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload("q".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.EXACTLY_ONCE)
                    .send();
            Mqtt5Publish p = in.receive(15, TimeUnit.SECONDS).orElseThrow();
            assertThat(p.getQos()).isEqualTo(MqttQos.AT_LEAST_ONCE);
        } finally {
            publisher.disconnect();
            subscriber.disconnect();
        }
    }

    @Test
    void resent_qos2_publish_is_delivered_once() throws Exception {
        String topic = "it/qos2-dup/" + id("t");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("sub"));
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL);
                RawMqtt publisher = new RawMqtt(cluster.mqttPort(1))) {
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.EXACTLY_ONCE)
                    .send();
            publisher.send(RawMqtt.connect311(id("raw"), 60));
            assertThat(publisher.readPacket(10_000)[2]).as("CONNACK accepted").isZero();

            byte[] body = publishBody(topic, 7, "once");
            publisher.send(RawMqtt.packet(0x34, body)); // QoS 2
            assertThat(publisher.readPacket(10_000)[0] & 0xFF).as("PUBREC").isEqualTo(0x50);
            // The PUBREC "was lost": the client sends the PUBLISH again with DUP (MQTT 4.3.3).
            publisher.send(RawMqtt.packet(0x3C, body));
            assertThat(publisher.readPacket(10_000)[0] & 0xFF)
                    .as("PUBREC again")
                    .isEqualTo(0x50);
            publisher.send(RawMqtt.packet(0x62, new byte[] {0, 7})); // PUBREL
            assertThat(publisher.readPacket(10_000)[0] & 0xFF).as("PUBCOMP").isEqualTo(0x70);

            Mqtt5Publish p = in.receive(15, TimeUnit.SECONDS).orElseThrow();
            assertThat(new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("once");
            assertThat(in.receive(2, TimeUnit.SECONDS))
                    .as("the re-sent PUBLISH is not delivered again")
                    .isEmpty();
        } finally {
            subscriber.disconnect();
        }
    }

    private static byte[] publishBody(String topic, int packetId, String payload) {
        byte[] t = topic.getBytes(StandardCharsets.UTF_8);
        byte[] p = payload.getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[2 + t.length + 2 + p.length];
        body[0] = (byte) (t.length >> 8);
        body[1] = (byte) t.length;
        System.arraycopy(t, 0, body, 2, t.length);
        body[2 + t.length] = (byte) (packetId >> 8);
        body[3 + t.length] = (byte) packetId;
        System.arraycopy(p, 0, body, 4 + t.length, p.length);
        return body;
    }
}
