package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.Mqtt5Packets.Property;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.paho.mqttv5.client.IMqttToken;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Per-subscription options of MQTT 5: subscription identifiers, no-local; overlapping filters of one client. */
@ExtendWith(LogsOnFailure.class)
class SubscriptionOptionsTest {

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private static void subscribe(MqttAsyncClient client, String filter, int qos, Integer subscriptionId)
            throws MqttException {
        MqttProperties properties = new MqttProperties();
        if (subscriptionId != null) {
            properties.setSubscriptionIdentifier(subscriptionId);
        }
        IMqttToken token =
                client.subscribe(new MqttSubscription[] {new MqttSubscription(filter, qos)}, null, null, properties);
        token.waitForCompletion(10_000);
        assertThat(token.getReasonCodes()).containsExactly(qos);
    }

    @Test
    void overlapping_subscriptions_give_one_copy_with_every_identifier_at_the_highest_qos() throws Exception {
        String root = "it/subid/" + id("t");
        BlockingQueue<MqttMessage> received = new LinkedBlockingQueue<>();
        MqttAsyncClient subscriber = Clients.paho5(cluster.mqttPort(0), received);
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        publisher.connect();
        try {
            subscribe(subscriber, root + "/+/t", 0, 7);
            subscribe(subscriber, root + "/#", 1, 9);
            subscribe(subscriber, root + "/x/t", 0, null);

            publisher
                    .publishWith()
                    .topic(root + "/x/t")
                    .payload("both".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.EXACTLY_ONCE)
                    .send();
            MqttMessage both = received.poll(15, TimeUnit.SECONDS);
            assertThat(both).as("delivered").isNotNull();
            assertThat(both.getQos())
                    .as("highest QoS of the matching subscriptions")
                    .isEqualTo(1);
            assertThat(both.getProperties().getSubscriptionIdentifiers()).containsExactlyInAnyOrder(7, 9);
            assertThat(received.poll(1, TimeUnit.SECONDS))
                    .as("one copy for three matching filters")
                    .isNull();

            publisher
                    .publishWith()
                    .topic(root + "/z")
                    .payload("one".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            MqttMessage one = received.poll(15, TimeUnit.SECONDS);
            assertThat(one).isNotNull();
            assertThat(new String(one.getPayload(), StandardCharsets.UTF_8)).isEqualTo("one");
            assertThat(one.getProperties().getSubscriptionIdentifiers()).containsExactly(9);
        } finally {
            publisher.disconnect();
            subscriber.disconnect().waitForCompletion(5_000);
            subscriber.close();
        }
    }

    @Test
    void identifiers_reach_the_wire_and_identifier_zero_is_a_protocol_error() throws Exception {
        String topic = "it/subid-raw/" + id("t");
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        publisher.connect();
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
            raw.send(Mqtt5Packets.connect(id("raw"), 60));
            assertThat(Mqtt5Packets.reasonCode(raw.readPacket(10_000))).isZero();
            raw.send(Mqtt5Packets.subscribe(1, topic, 0, Property.subscriptionIdentifier(268_435_455)));
            assertThat(Mqtt5Packets.reasonCode(raw.readPacket(10_000)))
                    .as("SUBACK granted")
                    .isZero();
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload("x".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            Mqtt5Packets.Publish p = Mqtt5Packets.parsePublish(raw.readPacket(15_000));
            assertThat(p.subscriptionIds())
                    .as("largest identifier, four bytes on the wire")
                    .containsExactly(268_435_455);

            raw.send(Mqtt5Packets.subscribe(2, topic + "/0", 0, Property.subscriptionIdentifier(0)));
            byte[] disconnect = raw.readPacket(10_000);
            assertThat(Mqtt5Packets.type(disconnect)).isEqualTo(14);
            assertThat(Mqtt5Packets.reasonCode(disconnect)).isEqualTo(0x82);
        } finally {
            publisher.disconnect();
        }
    }

    @Test
    void no_local_subscriber_does_not_get_its_own_messages_but_gets_others() throws Exception {
        String topic = "it/nolocal/" + id("t");
        Mqtt5BlockingClient self = hive5(cluster.mqttPort(0), id("self"));
        Mqtt5BlockingClient other = hive5(cluster.mqttPort(1), id("other"));
        self.connect();
        other.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = self.publishes(MqttGlobalPublishFilter.ALL)) {
            self.subscribeWith()
                    .topicFilter(topic)
                    .noLocal(true)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            self.publishWith()
                    .topic(topic)
                    .payload("own".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            other.publishWith()
                    .topic(topic)
                    .payload("other".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            Mqtt5Publish first = in.receive(15, TimeUnit.SECONDS).orElseThrow();
            assertThat(new String(first.getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("other");
            assertThat(in.receive(1, TimeUnit.SECONDS))
                    .as("its own message never arrives")
                    .isEmpty();
        } finally {
            other.disconnect();
            self.disconnect();
        }
    }
}
