package io.tributary.it.conformance;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.Mqtt5Packets.Property;
import io.tributary.it.support.NodeProbe;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

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
                assertThat(wire.awaitSeen(Wire.PUBACK, 1, 10_000))
                        .as("PUBACK of the pipelined publish")
                        .isTrue();
            }
        }
        assertThat(delivered)
                .as("publishes pipelined behind their SUBSCRIBE delivered to it")
                .isEqualTo(TRIES);
    }

    @Test
    void mqtt311_connect_subscribe_and_publish_in_one_write_deliver_the_publish() throws Exception {
        int delivered = 0;
        for (int i = 0; i < TRIES; i++) {
            String topic = "it/pipe/" + id("all");
            byte[] payload = ("all-at-once-" + i).getBytes(StandardCharsets.UTF_8);
            try (RawMqtt raw = new RawMqtt(cluster.mqttPort(i % 2))) {
                Wire wire = new Wire(raw);
                raw.send(concat(
                        RawMqtt.connect311(id("pipe"), 30),
                        RawMqtt.subscribe311(1, topic, 1),
                        RawMqtt.publish311(topic, 1, 2, payload)));
                if (wire.await(Wire.publishWithPayload(payload, false), 6_000) != null) {
                    delivered++;
                }
                assertThat(wire.awaitSeen(Wire.PUBACK, 1, 10_000)).as("PUBACK").isTrue();
            }
        }
        assertThat(delivered)
                .as("publishes written with their CONNECT and SUBSCRIBE delivered")
                .isEqualTo(TRIES);
    }

    @Test
    void mqtt311_publish_pipelined_behind_unsubscribe_is_not_delivered() throws Exception {
        List<RawMqtt> connections = new ArrayList<>();
        Map<Wire, byte[]> tries = new LinkedHashMap<>();
        try {
            for (int i = 0; i < TRIES; i++) {
                String topic = "it/pipe/" + id("unsub");
                byte[] payload = ("after-unsubscribe-" + i).getBytes(StandardCharsets.UTF_8);
                RawMqtt raw = new RawMqtt(cluster.mqttPort(i % 2));
                connections.add(raw);
                Wire wire = new Wire(raw);
                raw.send(RawMqtt.connect311(id("pipe"), 30));
                assertThat(wire.awaitType(Wire.CONNACK, 10_000)).as("CONNACK").isNotNull();
                raw.send(RawMqtt.subscribe311(1, topic, 1));
                assertThat(wire.awaitType(Wire.SUBACK, 10_000)).as("SUBACK").isNotNull();
                raw.send(concat(RawMqtt.unsubscribe311(2, topic), RawMqtt.publish311(topic, 1, 3, payload)));
                assertThat(wire.awaitSeen(Wire.PUBACK, 1, 10_000)).as("PUBACK").isTrue();
                assertThat(wire.awaitSeen(Wire.UNSUBACK, 1, 10_000))
                        .as("UNSUBACK")
                        .isTrue();
                tries.put(wire, payload);
            }
            // Every try's connection stays open and is watched for at least 2 s after its UNSUBACK, as when each
            // try waited 2 s on its own, but the tries' windows overlap instead of adding up to 20 s.
            int delivered = 0;
            long deadline = System.currentTimeMillis() + 2_000;
            for (Map.Entry<Wire, byte[]> t : tries.entrySet()) {
                Wire wire = t.getKey();
                long left = Math.max(50, deadline - System.currentTimeMillis());
                if (wire.await(Wire.publishWithPayload(t.getValue(), false), left) != null
                        || !wire.seen(Wire.PUBLISH).isEmpty()) {
                    delivered++;
                }
            }
            assertThat(delivered)
                    .as("publishes pipelined behind an UNSUBSCRIBE delivered to the removed subscription")
                    .isZero();
        } finally {
            for (RawMqtt raw : connections) {
                raw.close();
            }
        }
    }

    @Test
    void mqtt5_pipelined_overlapping_subscribes_give_the_publish_behind_them_both_identifiers() throws Exception {
        int complete = 0;
        List<RawMqtt> connections = new ArrayList<>();
        Map<Wire, byte[]> tries = new LinkedHashMap<>();
        try {
            for (int i = 0; i < TRIES; i++) {
                String topic = "it/pipe/" + id("ids");
                byte[] payload = ("ids-" + i).getBytes(StandardCharsets.UTF_8);
                RawMqtt raw = new RawMqtt(cluster.mqttPort(i % 2));
                connections.add(raw);
                Wire wire = new Wire(raw);
                raw.send(Mqtt5Packets.connect(id("pipe5"), 30));
                assertThat(wire.awaitType(Wire.CONNACK, 10_000)).as("CONNACK").isNotNull();
                raw.send(concat(
                        Mqtt5Packets.subscribe(1, topic, 1, Property.subscriptionIdentifier(2)),
                        Mqtt5Packets.subscribe(2, topic + "/#", 1, Property.subscriptionIdentifier(3)),
                        Mqtt5Packets.publish(topic, 1, 3, payload)));
                byte[] publish = wire.await(Wire.publishWithPayload(payload, true), 10_000);
                if (publish != null
                        && Mqtt5Packets.parsePublish(publish).subscriptionIds().containsAll(java.util.List.of(2, 3))) {
                    complete++;
                }
                assertThat(wire.awaitSeen(Wire.SUBACK, 2, 10_000))
                        .as("both SUBACKs")
                        .isTrue();
                tries.put(wire, payload);
            }
            // Each connection is watched for a second copy for at least 1 s after its SUBACKs, as when each try
            // waited 1 s on its own; the windows overlap instead of adding up.
            long deadline = System.currentTimeMillis() + 1_000;
            for (Map.Entry<Wire, byte[]> t : tries.entrySet()) {
                long left = Math.max(50, deadline - System.currentTimeMillis());
                assertThat(t.getKey().await(Wire.publishWithPayload(t.getValue(), true), left))
                        .as("one copy for overlapping subscriptions (MQTT 5 3.3.4)")
                        .isNull();
            }
        } finally {
            for (RawMqtt raw : connections) {
                raw.close();
            }
        }
        assertThat(complete).as("copies carrying identifiers 2 and 3").isEqualTo(TRIES);
    }

    /**
     * A client that subscribes to many filters without waiting for SUBACKs gets one SUBACK per SUBSCRIBE, in the
     * order it sent them, each with its packet identifier (MQTT 3.1.1 sections 3.8.4 and 4.6), and a PUBLISH written
     * behind them is matched by the last; the node carries the SUBSCRIBEs to session-service together, not in a call
     * (a round trip, a transaction) each.
     */
    @Test
    void many_pipelined_subscribes_are_answered_in_order_and_go_to_session_service_together() throws Exception {
        int filters = 60;
        String prefix = "it/pipe/" + id("many");
        byte[] payload = "behind-sixty-subscribes".getBytes(StandardCharsets.UTF_8);
        NodeProbe node = new NodeProbe(cluster, 0);
        try (RawMqtt raw = new RawMqtt(cluster.mqttPort(0))) {
            Wire wire = new Wire(raw);
            raw.send(RawMqtt.connect311(id("many"), 30));
            assertThat(wire.awaitType(Wire.CONNACK, 10_000)).as("CONNACK").isNotNull();
            byte[][] packets = new byte[filters + 1][];
            for (int i = 0; i < filters; i++) {
                packets[i] = RawMqtt.subscribe311(i + 1, prefix + "/" + i + "/#", 1);
            }
            packets[filters] = RawMqtt.publish311(prefix + "/" + (filters - 1) + "/x", 1, filters + 1, payload);
            String before = node.scrape();

            raw.send(concat(packets));

            assertThat(wire.await(Wire.publishWithPayload(payload, false), 20_000))
                    .as("the publish behind the SUBSCRIBEs, delivered to the last of them")
                    .isNotNull();
            assertThat(wire.awaitSeen(Wire.SUBACK, filters, 20_000))
                    .as("%d SUBACKs", filters)
                    .isTrue();
            List<byte[]> subacks = wire.seen(Wire.SUBACK);
            for (int i = 0; i < filters; i++) {
                byte[] suback = subacks.get(i); // first byte, packet identifier, return code (no length)
                assertThat(((suback[1] & 0xFF) << 8) | (suback[2] & 0xFF))
                        .as("packet identifier of SUBACK %d", i)
                        .isEqualTo(i + 1);
                assertThat(suback[3] & 0xFF).as("granted QoS of SUBACK %d", i).isEqualTo(1);
            }
            String after = node.scrape();
            double requests = NodeProbe.sum(after, "tributary_session_call_requests_sum", "call=\"subscribe\"")
                    - NodeProbe.sum(before, "tributary_session_call_requests_sum", "call=\"subscribe\"");
            double calls = NodeProbe.sum(after, "tributary_session_call_requests_count", "call=\"subscribe\"")
                    - NodeProbe.sum(before, "tributary_session_call_requests_count", "call=\"subscribe\"");
            System.out.printf("pipelined subscribes: %d SUBSCRIBEs in %.0f subscribe calls%n", filters, calls);
            assertThat(requests).as("SUBSCRIBEs carried by subscribe calls").isGreaterThanOrEqualTo(filters);
            assertThat(calls)
                    .as("subscribe calls to session-service for %d pipelined SUBSCRIBEs", filters)
                    .isPositive()
                    .isLessThanOrEqualTo(filters / 10.0);
        }
    }

    /**
     * SUBSCRIBE, UNSUBSCRIBE and SUBSCRIBE of one filter and a PUBLISH to it, written in one go by many clients at
     * once (MQTT 3.1.1 and 5, both nodes), so that the UNSUBSCRIBEs of different clients share session-service batch
     * calls while each client's SUBSCRIBEs, split by its UNSUBSCRIBE, go in calls of their own: every client ends subscribed and gets the
     * publish, and an MQTT 5 client's UNSUBACK says the subscription existed (0x00).
     */
    @Test
    void subscribe_unsubscribe_subscribe_pipelined_by_many_clients_ends_subscribed() throws Exception {
        int clients = 40;
        List<RawMqtt> raws = new ArrayList<>();
        List<Wire> wires = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                boolean v5 = (i / 2) % 2 == 0;
                RawMqtt raw = new RawMqtt(cluster.mqttPort(i % 2));
                raws.add(raw);
                Wire wire = new Wire(raw);
                wires.add(wire);
                raw.send(v5 ? Mqtt5Packets.connect(id("resub5"), 30) : RawMqtt.connect311(id("resub"), 30));
                assertThat(wire.awaitType(Wire.CONNACK, 10_000))
                        .as("CONNACK of client %d", i)
                        .isNotNull();
            }
            for (int i = 0; i < clients; i++) {
                boolean v5 = (i / 2) % 2 == 0;
                String topic = "it/pipe/" + id("resub");
                byte[] payload = ("resubscribed-" + i).getBytes(StandardCharsets.UTF_8);
                payloads.add(payload);
                raws.get(i)
                        .send(
                                v5
                                        ? concat(
                                                Mqtt5Packets.subscribe(1, topic, 1),
                                                Mqtt5Packets.unsubscribe(2, topic),
                                                Mqtt5Packets.subscribe(3, topic, 1),
                                                Mqtt5Packets.publish(topic, 1, 4, payload))
                                        : concat(
                                                RawMqtt.subscribe311(1, topic, 1),
                                                RawMqtt.unsubscribe311(2, topic),
                                                RawMqtt.subscribe311(3, topic, 1),
                                                RawMqtt.publish311(topic, 1, 4, payload)));
            }
            int delivered = 0;
            for (int i = 0; i < clients; i++) {
                boolean v5 = (i / 2) % 2 == 0;
                Wire wire = wires.get(i);
                if (wire.await(Wire.publishWithPayload(payloads.get(i), v5), 10_000) != null) {
                    delivered++;
                }
                assertThat(wire.awaitSeen(Wire.SUBACK, 2, 10_000))
                        .as("both SUBACKs of client %d", i)
                        .isTrue();
                assertThat(wire.awaitSeen(Wire.UNSUBACK, 1, 10_000))
                        .as("UNSUBACK of client %d", i)
                        .isTrue();
                if (v5) {
                    byte[] unsuback = wire.seen(Wire.UNSUBACK).get(0);
                    // packet id, property length (no properties when nothing failed), one reason code per filter
                    assertThat(unsuback[4 + unsuback[3]] & 0xFF)
                            .as("UNSUBACK reason code of client %d", i)
                            .isEqualTo(0x00);
                }
            }
            assertThat(delivered)
                    .as("clients subscribed again after their pipelined UNSUBSCRIBE")
                    .isEqualTo(clients);
        } finally {
            for (RawMqtt raw : raws) {
                raw.close();
            }
        }
    }

    static byte[] concat(byte[]... packets) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : packets) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
