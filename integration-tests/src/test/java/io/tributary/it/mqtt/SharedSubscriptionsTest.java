package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.MqttCallback;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Shared subscriptions {@code $share/{ShareName}/{filter}} (MQTT 5.0 section 4.8.2) with members on both transport
 * nodes: each message goes to exactly one member of the group, chosen by the router (the test cluster runs the
 * default round-robin strategy), while normal subscribers of the same filter get every message.
 */
@ExtendWith(LogsOnFailure.class)
class SharedSubscriptionsTest {

    private static final int MESSAGES = 20;

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void each_message_reaches_exactly_one_member_across_nodes_and_normal_subscribers_get_all() throws Exception {
        String root = "it/shared/" + id("t");
        String group = id("g");
        String shared = "$share/" + group + "/" + root + "/+";
        Mqtt5BlockingClient member1 = Clients.hive5(cluster.mqttPort(0), id("m1"));
        Mqtt5ConnAck connAck = member1.connect();
        assertThat(connAck.getRestrictions().isSharedSubscriptionAvailable())
                .as("CONNACK Shared Subscription Available")
                .isTrue();
        // The second member is an MQTT 3.1.1 client on the other node.
        BlockingQueue<String> member2Got = new LinkedBlockingQueue<>();
        MqttClient member2 = Clients.paho3(cluster.mqttPort(1), id("m2"), MqttConnectOptions.MQTT_VERSION_3_1_1);
        Mqtt5BlockingClient normal = Clients.hive5(cluster.mqttPort(0), id("n"));
        normal.connect();
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(1), id("pub"));
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes member1Publishes = member1.publishes(MqttGlobalPublishFilter.ALL);
                Mqtt5BlockingClient.Mqtt5Publishes normalPublishes = normal.publishes(MqttGlobalPublishFilter.ALL)) {
            assertThat(member1.subscribeWith()
                            .topicFilter(shared)
                            .qos(MqttQos.AT_LEAST_ONCE)
                            .send()
                            .getReasonCodes())
                    .extracting(c -> c.getCode())
                    .containsExactly(1);
            // Paho matches deliveries to per-subscription listeners by filter, which a $share filter never
            // matches; the client-wide callback gets them.
            member2.setCallback(new MqttCallback() {
                @Override
                public void messageArrived(String t, MqttMessage m) {
                    member2Got.add(new String(m.getPayload(), StandardCharsets.UTF_8));
                }

                @Override
                public void connectionLost(Throwable cause) {}

                @Override
                public void deliveryComplete(IMqttDeliveryToken token) {}
            });
            int[] granted = member2.subscribeWithResponse(shared, 1).getGrantedQos();
            assertThat(granted).containsExactly(1);
            normal.subscribeWith()
                    .topicFilter(root + "/+")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();

            for (int i = 0; i < MESSAGES; i++) {
                publisher
                        .publishWith()
                        .topic(root + "/" + (i % 3))
                        .payload(("m" + i).getBytes(StandardCharsets.UTF_8))
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();
            }

            List<String> normalGot = new ArrayList<>();
            for (int i = 0; i < MESSAGES; i++) {
                Mqtt5Publish p = normalPublishes
                        .receive(15, TimeUnit.SECONDS)
                        .orElseThrow(() -> new AssertionError("normal subscriber got only " + normalGot));
                normalGot.add(new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8));
            }
            assertThat(normalGot).containsExactlyInAnyOrderElementsOf(expected());

            // The normal subscriber has all 20, so the members' copies (routed in the same records) are on their way.
            List<String> member1Got = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (member1Got.size() + member2Got.size() < MESSAGES && System.nanoTime() < deadline) {
                member1Publishes
                        .receive(100, TimeUnit.MILLISECONDS)
                        .ifPresent(p -> member1Got.add(new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8)));
            }
            // Any extra copy would show up now.
            member1Publishes
                    .receive(1, TimeUnit.SECONDS)
                    .ifPresent(p -> member1Got.add(new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8)));
            List<String> all = new ArrayList<>(member1Got);
            all.addAll(member2Got);
            assertThat(all)
                    .as("every message to exactly one member (m1 %s, m2 %s)", member1Got, member2Got)
                    .containsExactlyInAnyOrderElementsOf(expected());
            assertThat(member1Got)
                    .as("round-robin reaches the member on node 1")
                    .isNotEmpty();
            assertThat(member2Got)
                    .as("round-robin reaches the member on node 2")
                    .isNotEmpty();
        } finally {
            publisher.disconnect();
            normal.disconnect();
            member2.disconnect();
            member1.disconnect();
        }
    }

    @Test
    void a_member_that_leaves_the_group_gets_nothing_and_the_others_get_everything() throws Exception {
        String topic = "it/shared/" + id("t");
        String shared = "$share/" + id("g") + "/" + topic;
        Mqtt5BlockingClient stays = Clients.hive5(cluster.mqttPort(0), id("s"));
        stays.connect();
        Mqtt5BlockingClient leaves = Clients.hive5(cluster.mqttPort(1), id("l"));
        leaves.connect();
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(1), id("pub"));
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes staysPublishes = stays.publishes(MqttGlobalPublishFilter.ALL);
                Mqtt5BlockingClient.Mqtt5Publishes leavesPublishes = leaves.publishes(MqttGlobalPublishFilter.ALL)) {
            stays.subscribeWith().topicFilter(shared).qos(MqttQos.AT_LEAST_ONCE).send();
            leaves.subscribeWith()
                    .topicFilter(shared)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            leaves.unsubscribeWith().topicFilter(shared).send();

            for (int i = 0; i < 5; i++) {
                publisher
                        .publishWith()
                        .topic(topic)
                        .payload(("m" + i).getBytes(StandardCharsets.UTF_8))
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();
            }
            Set<String> got = new HashSet<>();
            for (int i = 0; i < 5; i++) {
                got.add(new String(
                        staysPublishes
                                .receive(15, TimeUnit.SECONDS)
                                .orElseThrow()
                                .getPayloadAsBytes(),
                        StandardCharsets.UTF_8));
            }
            assertThat(got).containsExactlyInAnyOrder("m0", "m1", "m2", "m3", "m4");
            assertThat(leavesPublishes.receive(500, TimeUnit.MILLISECONDS)).isEmpty();
        } finally {
            publisher.disconnect();
            leaves.disconnect();
            stays.disconnect();
        }
    }

    @Test
    void retained_messages_are_not_sent_to_a_new_shared_subscription() throws Exception {
        String topic = "it/shared/" + id("t");
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(1), id("pub"));
        publisher.connect();
        Mqtt5BlockingClient member = Clients.hive5(cluster.mqttPort(0), id("m"));
        member.connect();
        // A subscriber from before the publish: once it has the message, routing is past it, so the shared
        // subscription made next cannot receive it as a live message either.
        Mqtt5BlockingClient probe = Clients.hive5(cluster.mqttPort(0), id("probe"));
        probe.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes publishes = member.publishes(MqttGlobalPublishFilter.ALL);
                Mqtt5BlockingClient.Mqtt5Publishes routed = probe.publishes(MqttGlobalPublishFilter.ALL)) {
            probe.subscribeWith().topicFilter(topic).qos(MqttQos.AT_LEAST_ONCE).send();
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload("kept".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .retain(true)
                    .send();
            assertThat(routed.receive(15, TimeUnit.SECONDS))
                    .as("the publish was routed")
                    .isPresent();
            member.subscribeWith()
                    .topicFilter("$share/" + id("g") + "/" + topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            assertThat(publishes.receive(1, TimeUnit.SECONDS))
                    .as("no retained message (MQTT 5 4.8.2)")
                    .isEmpty();
            // A normal subscription of the same client still gets it: the message was retained.
            member.subscribeWith().topicFilter(topic).qos(MqttQos.AT_LEAST_ONCE).send();
            Mqtt5Publish retained = publishes.receive(15, TimeUnit.SECONDS).orElseThrow();
            assertThat(retained.isRetain()).isTrue();
        } finally {
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload(new byte[0])
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .retain(true)
                    .send();
            publisher.disconnect();
            member.disconnect();
            probe.disconnect();
        }
    }

    @Test
    void invalid_share_name_is_refused_0x8f_and_no_local_on_a_shared_subscription_is_a_protocol_error()
            throws Exception {
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
            raw.send(Mqtt5Packets.connect(id("raw"), 60));
            assertThat(Mqtt5Packets.reasonCode(raw.readPacket(10_000))).isZero();
            raw.send(Mqtt5Packets.subscribe(1, "$share/g+/it/x", 1));
            assertThat(Mqtt5Packets.reasonCode(raw.readPacket(10_000)))
                    .as("wildcard in the share name")
                    .isEqualTo(0x8F);
            raw.send(Mqtt5Packets.subscribe(2, "$share//it/x", 1));
            assertThat(Mqtt5Packets.reasonCode(raw.readPacket(10_000)))
                    .as("empty share name")
                    .isEqualTo(0x8F);
            raw.send(Mqtt5Packets.subscribe(3, "$share/g/it/x", 1));
            assertThat(Mqtt5Packets.reasonCode(raw.readPacket(10_000)))
                    .as("valid shared filter granted")
                    .isEqualTo(1);

            // Subscription options byte: QoS 1 | No Local (bit 2).
            raw.send(Mqtt5Packets.subscribe(4, "$share/g/it/y", 1 | 0x04));
            byte[] disconnect = raw.readPacket(10_000);
            assertThat(Mqtt5Packets.type(disconnect)).isEqualTo(14);
            assertThat(Mqtt5Packets.reasonCode(disconnect)).isEqualTo(0x82);
        }
    }

    private static List<String> expected() {
        List<String> all = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            all.add("m" + i);
        }
        return all;
    }
}
