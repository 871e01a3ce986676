package io.tributary.it.mqtt;

import static io.tributary.it.support.Clients.hive5;
import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5RetainHandling;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Retained messages (MQTT 3.1.1 and 5.0 section 3.3.1.3; 5.0 Retain Handling and Retain As Published): stored once,
 * visible from every node. Publishers are on node 2, subscribers on node 1, every PUBLISH acknowledged before the
 * SUBSCRIBE that must see it.
 */
@ExtendWith(LogsOnFailure.class)
class RetainedMessagesTest {

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    private static Mqtt5BlockingClient publisher() {
        Mqtt5BlockingClient publisher = hive5(cluster.mqttPort(1), id("rpub"));
        Mqtt5ConnAck ack = publisher.connect();
        assertThat(ack.getRestrictions().isRetainAvailable())
                .as("CONNACK Retain Available")
                .isTrue();
        return publisher;
    }

    private static void retain(Mqtt5BlockingClient publisher, String topic, String payload) {
        publisher
                .publishWith()
                .topic(topic)
                .payload(payload.getBytes(StandardCharsets.UTF_8))
                .qos(MqttQos.AT_LEAST_ONCE)
                .retain(true)
                .send();
    }

    /**
     * The messages sent with RETAIN = 1 until none came for a second. Live copies (RETAIN = 0) are skipped: a router
     * that is behind may still route a PUBLISH appended before the SUBSCRIBE to the new subscription, as a live
     * message; that is routing's behaviour, not the retained store's.
     */
    private static List<Mqtt5Publish> drainRetained(Mqtt5BlockingClient.Mqtt5Publishes publishes, long firstWaitMs)
            throws InterruptedException {
        List<Mqtt5Publish> out = new ArrayList<>();
        long deadline = System.currentTimeMillis() + firstWaitMs;
        Optional<Mqtt5Publish> next = publishes.receive(firstWaitMs, TimeUnit.MILLISECONDS);
        while (next.isPresent()) {
            if (next.get().isRetain()) {
                out.add(next.get());
            }
            long wait = out.isEmpty() ? Math.max(1_000, deadline - System.currentTimeMillis()) : 1_000;
            next = publishes.receive(wait, TimeUnit.MILLISECONDS);
        }
        return out;
    }

    private static Mqtt5Publish receiveRetained(Mqtt5BlockingClient.Mqtt5Publishes publishes)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + 15_000;
        while (System.currentTimeMillis() < deadline) {
            Optional<Mqtt5Publish> next =
                    publishes.receive(deadline - System.currentTimeMillis(), TimeUnit.MILLISECONDS);
            if (next.isPresent() && next.get().isRetain()) {
                return next.get();
            }
        }
        throw new AssertionError("no retained message within 15 s");
    }

    private static <M> M pollUntil(BlockingQueue<M> queue, java.util.function.Predicate<M> wanted)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + 15_000;
        while (System.currentTimeMillis() < deadline) {
            M m = queue.poll(deadline - System.currentTimeMillis(), TimeUnit.MILLISECONDS);
            if (m != null && wanted.test(m)) {
                return m;
            }
        }
        return null;
    }

    @Test
    void retained_message_published_on_node_2_reaches_later_subscribers_on_node_1_with_retain_set() throws Exception {
        String topic = "it/retained/" + id("t") + "/state";
        Mqtt5BlockingClient publisher = publisher();
        publisher
                .publishWith()
                .topic(topic)
                .payload("on".getBytes(StandardCharsets.UTF_8))
                .qos(MqttQos.AT_LEAST_ONCE)
                .retain(true)
                .messageExpiryInterval(3600)
                .contentType("text/plain")
                .userProperties()
                .add("origin", "node-2")
                .applyUserProperties()
                .send();
        publisher.disconnect();

        // HiveMQ, MQTT 5
        Mqtt5BlockingClient hive = hive5(cluster.mqttPort(0), id("rsub"));
        hive.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes publishes = hive.publishes(MqttGlobalPublishFilter.ALL)) {
            hive.subscribeWith().topicFilter(topic).qos(MqttQos.EXACTLY_ONCE).send();
            Mqtt5Publish got = receiveRetained(publishes);
            assertThat(got.getTopic().toString()).isEqualTo(topic);
            assertThat(new String(got.getPayloadAsBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("on");
            assertThat(got.isRetain()).isTrue();
            assertThat(got.getQos()).as("published QoS, below the granted one").isEqualTo(MqttQos.AT_LEAST_ONCE);
            assertThat(got.getContentType().orElseThrow().toString()).isEqualTo("text/plain");
            assertThat(got.getUserProperties().asList())
                    .extracting(p -> p.getName() + "=" + p.getValue())
                    .containsExactly("origin=node-2");
            assertThat(got.getMessageExpiryInterval().orElseThrow()).isBetween(3500L, 3600L);
        } finally {
            hive.disconnect();
        }

        // Paho, MQTT 3.1.1
        MqttClient paho = new MqttClient(
                "tcp://127.0.0.1:" + cluster.mqttPort(0),
                id("rp3"),
                new org.eclipse.paho.client.mqttv3.persist.MemoryPersistence());
        paho.connect(Clients.paho3Options(MqttConnectOptions.MQTT_VERSION_3_1_1));
        try {
            BlockingQueue<org.eclipse.paho.client.mqttv3.MqttMessage> received = new LinkedBlockingQueue<>();
            paho.subscribe(topic, 0, (t, m) -> received.add(m));
            org.eclipse.paho.client.mqttv3.MqttMessage m =
                    pollUntil(received, org.eclipse.paho.client.mqttv3.MqttMessage::isRetained);
            assertThat(m).as("retained message for the 3.1.1 subscriber").isNotNull();
            assertThat(m.isRetained()).isTrue();
            assertThat(m.getQos()).as("granted QoS 0").isZero();
            assertThat(new String(m.getPayload(), StandardCharsets.UTF_8)).isEqualTo("on");
        } finally {
            paho.disconnect();
            paho.close();
        }
    }

    @Test
    void retained_message_carries_the_subscription_identifier_of_the_new_subscription() throws Exception {
        String topic = "it/retained/" + id("sid");
        Mqtt5BlockingClient publisher = publisher();
        retain(publisher, topic, "x");
        publisher.disconnect();

        BlockingQueue<MqttMessage> received = new LinkedBlockingQueue<>();
        MqttAsyncClient paho5 = Clients.paho5(cluster.mqttPort(0), received);
        try {
            MqttProperties properties = new MqttProperties();
            properties.setSubscriptionIdentifier(77);
            paho5.subscribe(new MqttSubscription[] {new MqttSubscription(topic, 1)}, null, null, properties)
                    .waitForCompletion(10_000);
            MqttMessage m = pollUntil(received, MqttMessage::isRetained);
            assertThat(m).isNotNull();
            assertThat(m.isRetained()).isTrue();
            assertThat(m.getProperties().getSubscriptionIdentifiers()).containsExactly(77);
        } finally {
            paho5.disconnect().waitForCompletion(5_000);
            paho5.close();
        }
    }

    @Test
    void wildcard_subscription_gets_every_matching_retained_message() throws Exception {
        String root = "it/retained/" + id("w");
        Mqtt5BlockingClient publisher = publisher();
        retain(publisher, root + "/a/temp", "1");
        retain(publisher, root + "/b/temp", "2");
        retain(publisher, root + "/b/humidity", "3");
        retain(publisher, root + "/c/d/temp", "4");
        publisher.disconnect();

        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("rsub"));
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes publishes = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(root + "/+/temp")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            List<Mqtt5Publish> got = drainRetained(publishes, 15_000);
            assertThat(got)
                    .extracting(p -> p.getTopic().toString())
                    .containsExactlyInAnyOrder(root + "/a/temp", root + "/b/temp");

            subscriber
                    .subscribeWith()
                    .topicFilter(root + "/#")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            assertThat(drainRetained(publishes, 15_000))
                    .extracting(p -> p.getTopic().toString())
                    .containsExactlyInAnyOrder(
                            root + "/a/temp", root + "/b/temp", root + "/b/humidity", root + "/c/d/temp");
        } finally {
            subscriber.disconnect();
        }
    }

    @Test
    void empty_retained_payload_deletes_the_retained_message() throws Exception {
        String root = "it/retained/" + id("del");
        Mqtt5BlockingClient publisher = publisher();
        retain(publisher, root + "/gone", "soon gone");
        retain(publisher, root + "/kept", "kept");
        retain(publisher, root + "/gone", "");
        publisher.disconnect();

        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("rsub"));
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes publishes = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(root + "/#")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            assertThat(drainRetained(publishes, 15_000))
                    .extracting(p -> p.getTopic().toString())
                    .containsExactly(root + "/kept");
            subscriber
                    .subscribeWith()
                    .topicFilter(root + "/gone")
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            assertThat(drainRetained(publishes, 2_000))
                    .as("deleted retained message")
                    .isEmpty();
        } finally {
            subscriber.disconnect();
        }
    }

    @Test
    void retain_handling_2_sends_nothing_and_1_sends_only_for_a_new_subscription() throws Exception {
        String topic = "it/retained/" + id("rh");
        Mqtt5BlockingClient publisher = publisher();
        retain(publisher, topic, "r");
        publisher.disconnect();

        Mqtt5BlockingClient subscriber = hive5(cluster.mqttPort(0), id("rsub"));
        subscriber.connect();
        try (Mqtt5BlockingClient.Mqtt5Publishes publishes = subscriber.publishes(MqttGlobalPublishFilter.ALL)) {
            subscriber
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .retainHandling(Mqtt5RetainHandling.DO_NOT_SEND)
                    .send();
            assertThat(drainRetained(publishes, 2_000)).as("retain handling 2").isEmpty();

            String wildcard = topic.substring(0, topic.lastIndexOf('/')) + "/+";
            subscriber
                    .subscribeWith()
                    .topicFilter(wildcard)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .retainHandling(Mqtt5RetainHandling.SEND_IF_SUBSCRIPTION_DOES_NOT_EXIST)
                    .send();
            List<Mqtt5Publish> first = drainRetained(publishes, 15_000);
            assertThat(first).extracting(p -> p.getTopic().toString()).contains(topic);

            subscriber
                    .subscribeWith()
                    .topicFilter(wildcard)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .retainHandling(Mqtt5RetainHandling.SEND_IF_SUBSCRIPTION_DOES_NOT_EXIST)
                    .send();
            assertThat(drainRetained(publishes, 2_000))
                    .as("retain handling 1, existing subscription")
                    .isEmpty();
        } finally {
            subscriber.disconnect();
        }
    }

    @Test
    void live_messages_keep_retain_only_with_retain_as_published() throws Exception {
        String topic = "it/retained/" + id("rap");
        Mqtt5BlockingClient asPublished = hive5(cluster.mqttPort(0), id("rap"));
        Mqtt5BlockingClient plain = hive5(cluster.mqttPort(0), id("plain"));
        asPublished.connect();
        plain.connect();
        Mqtt5BlockingClient publisher = publisher();
        try (Mqtt5BlockingClient.Mqtt5Publishes rapIn = asPublished.publishes(MqttGlobalPublishFilter.ALL);
                Mqtt5BlockingClient.Mqtt5Publishes plainIn = plain.publishes(MqttGlobalPublishFilter.ALL)) {
            asPublished
                    .subscribeWith()
                    .topicFilter(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .retainAsPublished(true)
                    .send();
            plain.subscribeWith().topicFilter(topic).qos(MqttQos.AT_LEAST_ONCE).send();

            retain(publisher, topic, "live retained");
            publisher
                    .publishWith()
                    .topic(topic)
                    .payload("live plain".getBytes(StandardCharsets.UTF_8))
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();

            Mqtt5Publish r1 = rapIn.receive(15, TimeUnit.SECONDS).orElseThrow();
            Mqtt5Publish r2 = rapIn.receive(15, TimeUnit.SECONDS).orElseThrow();
            assertThat(r1.isRetain())
                    .as("retain as published, retained PUBLISH")
                    .isTrue();
            assertThat(r2.isRetain()).as("retain as published, plain PUBLISH").isFalse();
            Mqtt5Publish p1 = plainIn.receive(15, TimeUnit.SECONDS).orElseThrow();
            Mqtt5Publish p2 = plainIn.receive(15, TimeUnit.SECONDS).orElseThrow();
            assertThat(p1.isRetain())
                    .as("live delivery without retain as published")
                    .isFalse();
            assertThat(p2.isRetain()).isFalse();
        } finally {
            publisher.disconnect();
            asPublished.disconnect();
            plain.disconnect();
        }
    }
}
