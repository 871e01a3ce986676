package io.tributary.it.conformance;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.it.support.ExtraTransport;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Limits a node advertises and holds clients to, on a node of its own with small values: Receive Maximum
 * ({@code MQTT_RECEIVE_MAXIMUM}, MQTT 5 section 4.9: QoS 2 publishes count until PUBCOMP) and the keep alive cap
 * ({@code MQTT_MAX_KEEP_ALIVE}, MQTT 5 3.2.2.3.14 Server Keep Alive; MQTT 3.x clients are held to it too).
 */
@ExtendWith(LogsOnFailure.class)
class ClientLimitsConformanceTest {

    private static final int RECEIVE_MAXIMUM = 10;
    private static final int MAX_KEEP_ALIVE = 2;
    private static ExtraTransport node;

    @BeforeAll
    static void node() throws Exception {
        node = TributaryCluster.shared()
                .startTransport(
                        "it-limits-node",
                        Map.of("MQTT_RECEIVE_MAXIMUM", RECEIVE_MAXIMUM, "MQTT_MAX_KEEP_ALIVE", MAX_KEEP_ALIVE));
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void mqtt5_qos2_publish_beyond_receive_maximum_without_pubrel_gets_disconnect_0x93() throws Exception {
        try (RawMqtt raw = new RawMqtt(node.mqttPort())) {
            Wire wire = new Wire(raw);
            raw.send(Mqtt5Packets.connect(id("rmax5"), 0));
            byte[] connack = wire.awaitType(Wire.CONNACK, 10_000);
            assertThat(Mqtt5Packets.connackNumbers(connack))
                    .as("CONNACK Receive Maximum")
                    .containsEntry(0x21, (long) RECEIVE_MAXIMUM);
            String topic = "it/rmax/" + id("t");
            for (int i = 1; i <= RECEIVE_MAXIMUM; i++) {
                raw.send(Mqtt5Packets.publish(topic, 2, i, new byte[] {(byte) i}));
            }
            for (int i = 1; i <= RECEIVE_MAXIMUM; i++) {
                assertThat(wire.awaitType(Wire.PUBREC, 10_000))
                        .as("PUBREC %d", i)
                        .isNotNull();
            }
            // Ten QoS 2 exchanges open (no PUBREL yet): one more is beyond the Receive Maximum.
            raw.send(Mqtt5Packets.publish(topic, 2, RECEIVE_MAXIMUM + 1, new byte[] {0}));
            byte[] disconnect = wire.awaitType(Wire.DISCONNECT, 5_000);
            assertThat(disconnect).as("DISCONNECT").isNotNull();
            assertThat(Mqtt5Packets.reasonCode(disconnect))
                    .as("Receive Maximum exceeded")
                    .isEqualTo(0x93);
            assertThat(wire.awaitClose(5_000)).as("closed").isTrue();
            assertThat(wire.seen(Wire.PUBREC))
                    .as("no PUBREC beyond the maximum")
                    .hasSize(RECEIVE_MAXIMUM);
        }
    }

    @Test
    void mqtt311_qos2_publish_beyond_receive_maximum_without_pubrel_closes_the_connection() throws Exception {
        try (RawMqtt raw = new RawMqtt(node.mqttPort())) {
            Wire wire = new Wire(raw);
            raw.send(RawMqtt.connect311(id("rmax3"), 0));
            assertThat(wire.awaitType(Wire.CONNACK, 10_000)).as("CONNACK").isNotNull();
            String topic = "it/rmax/" + id("t");
            for (int i = 1; i <= RECEIVE_MAXIMUM; i++) {
                raw.send(RawMqtt.publish311(topic, 2, i, new byte[] {(byte) i}));
            }
            for (int i = 1; i <= RECEIVE_MAXIMUM; i++) {
                assertThat(wire.awaitType(Wire.PUBREC, 10_000))
                        .as("PUBREC %d", i)
                        .isNotNull();
            }
            raw.send(RawMqtt.publish311(topic, 2, RECEIVE_MAXIMUM + 1, new byte[] {0}));
            // Well within the keep alive cap's 3 s, so it is the Receive Maximum that closes it.
            assertThat(wire.awaitClose(2_000)).as("closed").isTrue();
            assertThat(wire.seen(Wire.PUBREC))
                    .as("no PUBREC beyond the maximum")
                    .hasSize(RECEIVE_MAXIMUM);
        }
    }

    @Test
    void mqtt5_client_completing_its_qos2_exchanges_stays_within_receive_maximum() throws Exception {
        try (RawMqtt raw = new RawMqtt(node.mqttPort())) {
            Wire wire = new Wire(raw);
            raw.send(Mqtt5Packets.connect(id("rmaxok"), 0));
            assertThat(wire.awaitType(Wire.CONNACK, 10_000)).as("CONNACK").isNotNull();
            String topic = "it/rmax/" + id("t");
            for (int round = 1; round <= 3; round++) {
                for (int i = 1; i <= RECEIVE_MAXIMUM; i++) {
                    raw.send(Mqtt5Packets.publish(topic, 2, i, new byte[] {(byte) i}));
                }
                assertThat(wire.awaitSeen(Wire.PUBREC, round * RECEIVE_MAXIMUM, 10_000))
                        .as("PUBRECs")
                        .isTrue();
                for (int i = 1; i <= RECEIVE_MAXIMUM; i++) {
                    raw.send(Mqtt5Packets.pubrel(i));
                }
                assertThat(wire.awaitSeen(Wire.PUBCOMP, round * RECEIVE_MAXIMUM, 10_000))
                        .as("PUBCOMPs")
                        .isTrue();
            }
            assertThat(wire.seen(Wire.DISCONNECT)).isEmpty();
            raw.send(Mqtt5Packets.disconnect());
        }
    }

    @Test
    void mqtt5_keep_alive_0_or_above_the_cap_gets_server_keep_alive_and_is_enforced() throws Exception {
        for (int requested : new int[] {0, 60}) {
            try (RawMqtt raw = new RawMqtt(node.mqttPort())) {
                Wire wire = new Wire(raw);
                raw.send(Mqtt5Packets.connect(id("ka5"), requested));
                byte[] connack = wire.awaitType(Wire.CONNACK, 10_000);
                assertThat(Mqtt5Packets.connackNumbers(connack))
                        .as("Server Keep Alive for keep alive %d", requested)
                        .containsEntry(0x13, (long) MAX_KEEP_ALIVE);
                long start = System.nanoTime();
                assertThat(wire.awaitClose(8_000))
                        .as("silent client closed at 1.5 x the cap")
                        .isTrue();
                assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(2_500);
            }
        }
    }

    @Test
    void mqtt311_clients_are_held_to_the_keep_alive_cap() throws Exception {
        for (int requested : new int[] {0, 60}) {
            try (RawMqtt raw = new RawMqtt(node.mqttPort())) {
                Wire wire = new Wire(raw);
                raw.send(RawMqtt.connect311(id("ka3"), requested));
                assertThat(wire.awaitType(Wire.CONNACK, 10_000)).as("CONNACK").isNotNull();
                long start = System.nanoTime();
                assertThat(wire.awaitClose(8_000))
                        .as("silent 3.1.1 client with keep alive %d closed", requested)
                        .isTrue();
                assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(2_500);
            }
        }
    }
}
