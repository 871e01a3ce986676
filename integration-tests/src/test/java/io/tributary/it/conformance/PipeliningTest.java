package io.tributary.it.conformance;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.Mqtt5Packets.Property;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;

/**
 * Packets a client pipelines on one connection take effect in the order they were sent (MQTT 3.1.1 section 4.6,
 * 5.0 section 4.6): a PUBLISH sent right behind a SUBSCRIBE, without waiting for SUBACK, is matched against that
 * subscription, and one sent right behind an UNSUBSCRIBE is not. Raw sockets write the packets in one go, as an
 * independent client that does not wait may; Mosquitto gets every try right.
 */
@ExtendWith(LogsOnFailure.class)
class PipeliningTest {

    private static final int TRIES = 10;
    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void mqtt311_publish_pipelined_behind_subscribe_is_delivered_to_that_subscription() throws Exception {
        int delivered = 0;
        for (int i = 0; i < TRIES; i++) {
            String topic = "it/pipe/" + id("sub");
            byte[] payload = ("pipelined-" + i).getBytes(StandardCharsets.UTF_8);
            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(i % 2))) {
                Wire wire = new Wire(raw);
                raw.send(RawMqtt.connect311(id("pipe"), 30));
                assertThat(wire.awaitType(Wire.CONNACK, 10_000)).as("CONNACK").isNotNull();
                raw.send(concat(RawMqtt.subscribe311(1, topic, 1), RawMqtt.publish311(topic, 1, 2, payload)));
                if (wire.await(Wire.publishWithPayload(payload, false), 6_000) != null) {
                    delivered++;
                }
                assertThat(wire.awaitSeen(Wire.SUBACK, 1, 10_000)).as("SUBACK").isTrue();
                assertThat(wire.awaitSeen(Wire.PUBACK, 1, 10_000)).as("PUBACK of the pipelined publish").isTrue();
            }
        }
        assertThat(delivered).as("publishes pipelined behind their SUBSCRIBE delivered to it").isEqualTo(TRIES);
    }

    @Test
    void mqtt311_connect_subscribe_and_publish_in_one_write_deliver_the_publish() throws Exception {
        int delivered = 0;
        for (int i = 0; i < TRIES; i++) {
            String topic = "it/pipe/" + id("all");
            byte[] payload = ("all-at-once-" + i).getBytes(StandardCharsets.UTF_8);
            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(i % 2))) {
                Wire wire = new Wire(raw);
                raw.send(concat(RawMqtt.connect311(id("pipe"), 30), RawMqtt.subscribe311(1, topic, 1),
                        RawMqtt.publish311(topic, 1, 2, payload)));
                if (wire.await(Wire.publishWithPayload(payload, false), 6_000) != null) {
                    delivered++;
                }
                assertThat(wire.awaitSeen(Wire.PUBACK, 1, 10_000)).as("PUBACK").isTrue();
            }
        }
        assertThat(delivered).as("publishes written with their CONNECT and SUBSCRIBE delivered").isEqualTo(TRIES);
    }

    @Test
    void mqtt311_publish_pipelined_behind_unsubscribe_is_not_delivered() throws Exception {
        int delivered = 0;
        for (int i = 0; i < TRIES; i++) {
            String topic = "it/pipe/" + id("unsub");
            byte[] payload = ("after-unsubscribe-" + i).getBytes(StandardCharsets.UTF_8);
            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(i % 2))) {
                Wire wire = new Wire(raw);
                raw.send(RawMqtt.connect311(id("pipe"), 30));
                assertThat(wire.awaitType(Wire.CONNACK, 10_000)).as("CONNACK").isNotNull();
                raw.send(RawMqtt.subscribe311(1, topic, 1));
                assertThat(wire.awaitType(Wire.SUBACK, 10_000)).as("SUBACK").isNotNull();
                raw.send(concat(RawMqtt.unsubscribe311(2, topic), RawMqtt.publish311(topic, 1, 3, payload)));
                assertThat(wire.awaitSeen(Wire.PUBACK, 1, 10_000)).as("PUBACK").isTrue();
                assertThat(wire.awaitSeen(Wire.UNSUBACK, 1, 10_000)).as("UNSUBACK").isTrue();
                if (wire.await(Wire.publishWithPayload(payload, false), 2_000) != null
                        || !wire.seen(Wire.PUBLISH).isEmpty()) {
                    delivered++;
                }
            }
        }
        assertThat(delivered).as("publishes pipelined behind an UNSUBSCRIBE delivered to the removed subscription")
                .isZero();
    }

    @Test
    void mqtt5_pipelined_overlapping_subscribes_give_the_publish_behind_them_both_identifiers() throws Exception {
        int complete = 0;
        for (int i = 0; i < TRIES; i++) {
            String topic = "it/pipe/" + id("ids");
            byte[] payload = ("ids-" + i).getBytes(StandardCharsets.UTF_8);
            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(i % 2))) {
                Wire wire = new Wire(raw);
                raw.send(Mqtt5Packets.connect(id("pipe5"), 30));
                assertThat(wire.awaitType(Wire.CONNACK, 10_000)).as("CONNACK").isNotNull();
                raw.send(concat(
                        Mqtt5Packets.subscribe(1, topic, 1, Property.subscriptionIdentifier(2)),
                        Mqtt5Packets.subscribe(2, topic + "/#", 1, Property.subscriptionIdentifier(3)),
                        Mqtt5Packets.publish(topic, 1, 3, payload)));
                byte[] publish = wire.await(Wire.publishWithPayload(payload, true), 10_000);
                if (publish != null && Mqtt5Packets.parsePublish(publish).subscriptionIds().containsAll(
                        java.util.List.of(2, 3))) {
                    complete++;
                }
                assertThat(wire.awaitSeen(Wire.SUBACK, 2, 10_000)).as("both SUBACKs").isTrue();
                assertThat(wire.await(Wire.publishWithPayload(payload, true), 1_000))
                        .as("one copy for overlapping subscriptions (MQTT 5 3.3.4)").isNull();
            }
        }
        assertThat(complete).as("copies carrying identifiers 2 and 3").isEqualTo(TRIES);
    }

    static byte[] concat(byte[]... packets) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : packets) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
