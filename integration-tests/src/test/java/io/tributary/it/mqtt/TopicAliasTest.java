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
import io.tributary.it.support.Mqtt5Packets.Property;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MQTT 5 topic aliases (section 3.3.2.3.4) in both directions. Aliases belong to one connection, so the other side
 * of every message is on the other node: what crosses Kafka is always the full topic name. Raw sockets show the
 * wire; HiveMQ and Paho show that real clients understand it.
 */
@ExtendWith(LogsOnFailure.class)
class TopicAliasTest {

    /** The default {@code MQTT_TOPIC_ALIAS_MAXIMUM} both nodes run with. */
    private static final int SERVER_MAXIMUM = 10;

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private static RawMqtt connectRaw(int node, Property... properties) throws Exception {
        RawMqtt raw = new RawMqtt(cluster.mqttPort(node));
        raw.send(Mqtt5Packets.connect(id("raw"), 60, properties));
        byte[] connack = raw.readPacket(10_000);
        assertThat(Mqtt5Packets.type(connack)).isEqualTo(2);
        assertThat(Mqtt5Packets.reasonCode(connack)).as("CONNACK accepted").isZero();
        return raw;
    }

    private static Map<String, String> receiveTopicsByPayload(Mqtt5BlockingClient.Mqtt5Publishes in, int count)
            throws InterruptedException {
        Map<String, String> topics = new HashMap<>();
        for (int i = 0; i < count; i++) {
            Mqtt5Publish p = in.receive(15, TimeUnit.SECONDS)
                    .orElseThrow(() -> new AssertionError("missing messages, got " + topics));
            topics.put(
                    new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8),
                    p.getTopic().toString());
        }
        return topics;
    }

    @Test
    void alias_defined_by_a_client_stands_for_its_topic_until_redefined() throws Exception {
        String root = "it/alias-in/" + id("t");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("sub"));
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL);
                RawMqtt publisher = connectRaw(1)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(root + "/#")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            String[][] sends = {{root + "/x", "1"}, {"", "2"}, {root + "/y", "3"}, {"", "4"}};
            for (int i = 0; i < sends.length; i++) {
                publisher.send(Mqtt5Packets.publish(
                        sends[i][0],
                        1,
                        i + 1,
                        sends[i][1].getBytes(StandardCharsets.UTF_8),
                        Property.topicAlias(SERVER_MAXIMUM)));
                byte[] ack = publisher.readPacket(10_000);
                assertThat(Mqtt5Packets.type(ack)).as("PUBACK").isEqualTo(4);
                assertThat(Mqtt5Packets.reasonCode(ack)).isZero();
            }
            assertThat(receiveTopicsByPayload(in, 4))
                    .containsOnly(
                            Map.entry("1", root + "/x"),
                            Map.entry("2", root + "/x"),
                            Map.entry("3", root + "/y"),
                            Map.entry("4", root + "/y"));
        } finally {
            subscriber.disconnect();
        }
    }

    @Test
    void paho_publisher_aliasing_its_topics_is_understood() throws Exception {
        String topic = "it/alias-paho/" + id("t");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("sub"));
        subscriber.connect();
        // Paho mqttv5 gives each new topic an alias as soon as the server's Topic Alias Maximum allows, and sends
        // later publishes with an empty topic name.
        org.eclipse.paho.mqttv5.client.MqttClient publisher = new org.eclipse.paho.mqttv5.client.MqttClient(
                "tcp://127.0.0.1:" + cluster.mqttPort(1),
                id("paho5"),
                new org.eclipse.paho.mqttv5.client.persist.MemoryPersistence());
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            publisher.connect();
            for (int i = 1; i <= 3; i++) {
                publisher.publish(topic, String.valueOf(i).getBytes(StandardCharsets.UTF_8), 1, false);
            }
            assertThat(receiveTopicsByPayload(in, 3))
                    .containsOnly(Map.entry("1", topic), Map.entry("2", topic), Map.entry("3", topic));
        } finally {
            if (publisher.isConnected()) {
                publisher.disconnect();
            }
            publisher.close();
            subscriber.disconnect();
        }
    }

    @Test
    void invalid_aliases_end_the_connection_with_the_reason_code_the_specification_names() throws Exception {
        Object[][] cases = {
            {"a/b", SERVER_MAXIMUM + 1, 0x94, "alias above our Topic Alias Maximum"},
            {"a/b", 0, 0x94, "alias 0"},
            {"", 5, 0x82, "empty topic with an alias never defined"},
            {"", null, 0x82, "empty topic without alias"}
        };
        for (Object[] c : cases) {
            try (RawMqtt raw = connectRaw(1)) {
                Property[] properties =
                        c[1] == null ? new Property[0] : new Property[] {Property.topicAlias((Integer) c[1])};
                raw.send(Mqtt5Packets.publish((String) c[0], 0, 0, new byte[] {1}, properties));
                byte[] disconnect = raw.readPacket(10_000);
                assertThat(disconnect).as((String) c[3]).isNotNull();
                assertThat(Mqtt5Packets.type(disconnect)).as((String) c[3]).isEqualTo(14);
                assertThat(Mqtt5Packets.reasonCode(disconnect))
                        .as((String) c[3])
                        .isEqualTo(c[2]);
                assertThat(raw.awaitClosed(5_000)).as((String) c[3]).isNotNegative();
            }
        }
    }

    @Test
    void server_aliases_the_first_topics_up_to_the_clients_maximum() throws Exception {
        String root = "it/alias-out/" + id("t");
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        publisher.connect();
        try (RawMqtt subscriber = connectRaw(0, Property.topicAliasMaximum(2))) {
            subscriber.send(Mqtt5Packets.subscribe(1, root + "/#", 0));
            assertThat(Mqtt5Packets.reasonCode(subscriber.readPacket(10_000)))
                    .as("SUBACK granted")
                    .isZero();
            List<String> published = new ArrayList<>();
            for (String level : new String[] {"a", "b", "c"}) {
                for (int i = 0; i < 3; i++) {
                    published.add(root + "/" + level);
                    publisher
                            .publishWith()
                            .topic(root + "/" + level)
                            .qos(MqttQos.AT_LEAST_ONCE)
                            .send();
                }
            }
            Map<Integer, String> aliases = new HashMap<>();
            List<String> resolved = new ArrayList<>();
            int withoutTopicName = 0;
            for (int i = 0; i < published.size(); i++) {
                byte[] packet = subscriber.readPacket(15_000);
                assertThat(packet)
                        .as("message " + (i + 1) + " of " + published.size())
                        .isNotNull();
                Mqtt5Packets.Publish p = Mqtt5Packets.parsePublish(packet);
                if (p.topicAlias() != null) {
                    assertThat(p.topicAlias())
                            .as("within the client's Topic Alias Maximum")
                            .isBetween(1, 2);
                    if (p.topic().isEmpty()) {
                        assertThat(aliases).as("alias defined before use").containsKey(p.topicAlias());
                        withoutTopicName++;
                    } else {
                        assertThat(aliases.put(p.topicAlias(), p.topic()))
                                .as("an alias is never redefined")
                                .isNull();
                    }
                } else {
                    assertThat(p.topic()).isNotEmpty();
                }
                resolved.add(p.topic().isEmpty() ? aliases.get(p.topicAlias()) : p.topic());
            }
            assertThat(resolved).containsExactlyInAnyOrderElementsOf(published);
            assertThat(aliases).hasSize(2);
            assertThat(withoutTopicName)
                    .as("repeats of the two aliased topics carry no topic name")
                    .isEqualTo(4);
        } finally {
            publisher.disconnect();
        }
    }

    @Test
    void hivemq_subscriber_accepting_aliases_receives_every_topic_right() throws Exception {
        String root = "it/alias-hive/" + id("t");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("sub"));
        subscriber
                .connectWith()
                .restrictions()
                .topicAliasMaximum(2)
                .applyRestrictions()
                .send();
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        publisher.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes in = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(root + "/#")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            Map<String, String> expected = new HashMap<>();
            int n = 0;
            for (String level : new String[] {"a", "b", "c", "a", "b", "c"}) {
                String payload = String.valueOf(++n);
                expected.put(payload, root + "/" + level);
                publisher
                        .publishWith()
                        .topic(root + "/" + level)
                        .payload(payload.getBytes(StandardCharsets.UTF_8))
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();
            }
            assertThat(receiveTopicsByPayload(in, expected.size())).isEqualTo(expected);
        } finally {
            publisher.disconnect();
            subscriber.disconnect();
        }
    }
}
