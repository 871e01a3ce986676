package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5PublishResult;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.eclipse.paho.client.mqttv3.IMqttMessageListener;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Subscribers on node 1, publishers on node 2: every message crosses transport → Kafka → routing → Kafka → transport. */
@ExtendWith(LogsOnFailure.class)
class CrossNodeDeliveryTest {

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private static Mqtt5BlockingClient hive5(int port, String clientId) {
        Mqtt5BlockingClient client = Clients.hive5(port, clientId);
        client.connect();
        return client;
    }

    @Test
    void mqtt311_qos1_message_crosses_nodes_with_payload_untouched() throws Exception {
        String topic = "it/cross/" + id("t");
        byte[] payload = {0, 1, 2, (byte) 0xFE, (byte) 0xFF};
        BlockingQueue<org.eclipse.paho.client.mqttv3.MqttMessage> received = new LinkedBlockingQueue<>();
        MqttClient subscriber = Clients.paho3(cluster.mqttPort(0), id("sub"), MqttConnectOptions.MQTT_VERSION_3_1_1);
        MqttClient publisher = Clients.paho3(cluster.mqttPort(1), id("pub"), MqttConnectOptions.MQTT_VERSION_3_1_1);
        try {
            subscriber.subscribe(topic, 1, (IMqttMessageListener) (t, m) -> received.add(m));
            publisher.publish(topic, payload, 1, false);
            org.eclipse.paho.client.mqttv3.MqttMessage m = received.poll(15, TimeUnit.SECONDS);
            assertThat(m).as("message delivered across nodes").isNotNull();
            assertThat(m.getPayload()).containsExactly(payload);
            assertThat(m.getQos()).isEqualTo(1);
            assertThat(received.poll(500, TimeUnit.MILLISECONDS))
                    .as("exactly one copy")
                    .isNull();
        } finally {
            publisher.disconnect();
            subscriber.disconnect();
        }
    }

    @Test
    void wildcard_filters_match_per_specification_across_nodes() throws Exception {
        String root = "it/" + id("wild");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("sub"));
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        try (Mqtt5BlockingClient.Mqtt5Publishes publishes = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(root + "/+/temp")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            subscriber
                    .subscribeWith()
                    .topicFilter(root + "/all/#")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            for (String t : List.of(
                    root + "/k1/temp",
                    root + "/k1/humidity",
                    root + "/k1/temp/x",
                    root + "/all",
                    root + "/all/a/b/c",
                    root + "/other")) {
                publisher
                        .publishWith()
                        .topic(t)
                        .payload(t.getBytes(StandardCharsets.UTF_8))
                        .qos(MqttQos.AT_LEAST_ONCE)
                        .send();
            }
            List<String> topics = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Mqtt5Publish p = publishes
                        .receive(15, TimeUnit.SECONDS)
                        .orElseThrow(() -> new AssertionError("expected 3 matching messages, got " + topics));
                topics.add(p.getTopic().toString());
            }
            assertThat(publishes.receive(1, TimeUnit.SECONDS))
                    .as("no non-matching message")
                    .isEmpty();
            assertThat(topics).containsExactlyInAnyOrder(root + "/k1/temp", root + "/all", root + "/all/a/b/c");
        } finally {
            publisher.disconnect();
            subscriber.disconnect();
        }
    }

    @Test
    void qos1_publish_is_acknowledged_after_it_is_a_plain_kafka_record() throws Exception {
        String topic = "it/kafka/" + id("t");
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class))) {
            List<TopicPartition> partitions = consumer.partitionsFor("tributary.publish").stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);

            Mqtt5PublishResult result = publisher
                    .publishWith()
                    .topic(topic)
                    .payload("hello".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .userProperties()
                    .add("k", "v")
                    .applyUserProperties()
                    .send();
            assertThat(result.getError()).isEmpty();

            ConsumerRecord<byte[], byte[]> found = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (found == null && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (new String(r.key(), StandardCharsets.UTF_8).equals(topic)) {
                        found = r;
                    }
                }
            }
            assertThat(found).as("publish record on tributary.publish").isNotNull();
            assertThat(new String(found.value(), StandardCharsets.UTF_8)).isEqualTo("hello");
            assertThat(new String(found.headers().lastHeader("mqtt.qos").value(), StandardCharsets.UTF_8))
                    .isEqualTo("1");
            assertThat(new String(found.headers().lastHeader("mqtt5.user.k").value(), StandardCharsets.UTF_8))
                    .isEqualTo("v");
        } finally {
            publisher.disconnect();
        }
    }

    @Test
    void unsubscribe_stops_delivery() throws Exception {
        String topic = "it/unsub/" + id("t");
        Mqtt5BlockingClient leaving = hive5(cluster.mqttPort(0), id("leaving"));
        Mqtt5BlockingClient staying = hive5(cluster.mqttPort(0), id("staying"));
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("pub"));
        try (Mqtt5BlockingClient.Mqtt5Publishes leavingIn = leaving.publishes(MqttGlobalPublishFilter.ALL);
                Mqtt5BlockingClient.Mqtt5Publishes stayingIn = staying.publishes(MqttGlobalPublishFilter.ALL)) {
            leaving.subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            staying.subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload("one".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            assertThat(leavingIn.receive(15, TimeUnit.SECONDS)).isPresent();
            assertThat(stayingIn.receive(15, TimeUnit.SECONDS)).isPresent();

            leaving.unsubscribeWith().topicFilter(topic).send();
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload("two".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            assertThat(stayingIn.receive(15, TimeUnit.SECONDS))
                    .as("the other subscriber still receives")
                    .isPresent();
            assertThat(leavingIn.receive(1, TimeUnit.SECONDS))
                    .as("nothing after UNSUBACK")
                    .isEmpty();
        } finally {
            publisher.disconnect();
            staying.disconnect();
            leaving.disconnect();
        }
    }

    @Test
    void mqtt5_request_response_properties_survive_the_trip() throws Exception {
        String topic = "it/props/" + id("t");
        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("sub"));
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
            org.eclipse.paho.mqttv5.common.MqttMessage message =
                    new org.eclipse.paho.mqttv5.common.MqttMessage("req".getBytes(StandardCharsets.UTF_8));
            message.setQos(1);
            org.eclipse.paho.mqttv5.common.packet.MqttProperties props =
                    new org.eclipse.paho.mqttv5.common.packet.MqttProperties();
            props.setResponseTopic("reply/" + topic);
            props.setCorrelationData(new byte[] {4, 2});
            props.setContentType("text/plain");
            props.setUserProperties(List.of(
                    new org.eclipse.paho.mqttv5.common.packet.UserProperty("b", "1"),
                    new org.eclipse.paho.mqttv5.common.packet.UserProperty("a", "2")));
            message.setProperties(props);
            publisher.publish(topic, message);

            Mqtt5Publish p = in.receive(15, TimeUnit.SECONDS).orElseThrow();
            assertThat(p.getResponseTopic().map(Object::toString)).contains("reply/" + topic);
            assertThat(p.getCorrelationData()
                            .map(b -> {
                                byte[] a = new byte[b.remaining()];
                                b.get(a);
                                return a;
                            })
                            .orElseThrow())
                    .containsExactly(4, 2);
            assertThat(p.getContentType().map(Object::toString)).contains("text/plain");
            assertThat(p.getUserProperties().asList())
                    .extracting(u -> u.getName() + "=" + u.getValue())
                    .containsExactly("b=1", "a=2");
        } finally {
            if (publisher.isConnected()) {
                publisher.disconnect();
            }
            publisher.close();
            subscriber.disconnect();
        }
    }
}
