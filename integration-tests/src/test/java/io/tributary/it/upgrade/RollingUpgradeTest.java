package io.tributary.it.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.it.support.Clients;
import io.tributary.it.support.ExtraTransport;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.SteadyStream;
import io.tributary.it.support.TributaryCluster;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Draining a transport node on SIGTERM, as a rolling upgrade or a scale-down does (MQTT 5 section 4.13: the server
 * may send DISCONNECT before closing; 0x8B "Server shutting down", 0x9C "Use another server" with a Server
 * Reference, section 3.14.2.1), and an upgrade of two nodes one after the other under a QoS 1 stream to persistent
 * sessions, which must lose nothing. Runs on extra transport nodes of its own, so the shared nodes are untouched.
 */
@ExtendWith(LogsOnFailure.class)
class RollingUpgradeTest {

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void sigterm_closes_the_listener_first_then_mqtt5_gets_0x8B_and_mqtt311_is_closed() throws Exception {
        try (ExtraTransport node = cluster.startTransport("drain-a", Map.of());
                RawMqtt v5 = new RawMqtt(node.mqttPort());
                RawMqtt v311 = new RawMqtt(node.mqttPort())) {
            v5.send(Mqtt5Packets.connect(Clients.id("drain5"), 60));
            assertThat(Mqtt5Packets.reasonCode(v5.readPacket(10_000))).isZero();
            v311.send(RawMqtt.connect311(Clients.id("drain3"), 60));
            assertThat(v311.readPacket(10_000)[2])
                    .as("3.1.1 CONNACK return code")
                    .isZero();

            CompletableFuture<Void> stopping =
                    CompletableFuture.runAsync(() -> node.process().stop());
            byte[] disconnect = v5.readPacket(30_000);
            assertThat(disconnect).as("a DISCONNECT before the close").isNotNull();
            assertThat(Mqtt5Packets.type(disconnect)).isEqualTo(14);
            assertThat(Mqtt5Packets.reasonCode(disconnect)).isEqualTo(0x8B);
            // Sent after the listening sockets closed: a new CONNECT now goes elsewhere.
            assertThatThrownBy(() -> new Socket("127.0.0.1", node.mqttPort()).close())
                    .isInstanceOf(ConnectException.class);
            assertThat(v311.awaitClosed(15_000))
                    .as("the 3.1.1 connection is closed")
                    .isNotNegative();
            stopping.get(60, TimeUnit.SECONDS);
            assertThat(node.process().exitCode())
                    .as("a clean exit, not a kill after the grace period")
                    .hasValue(143);
        }
    }

    @Test
    void with_a_server_reference_mqtt5_clients_are_told_to_use_another_server() throws Exception {
        String reference = "mqtt.example.net:1883";
        try (ExtraTransport node = cluster.startTransport("drain-b", Map.of("MQTT_SERVER_REFERENCE", reference));
                RawMqtt v5 = new RawMqtt(node.mqttPort())) {
            v5.send(Mqtt5Packets.connect(Clients.id("drainref"), 60));
            assertThat(Mqtt5Packets.reasonCode(v5.readPacket(10_000))).isZero();

            CompletableFuture<Void> stopping =
                    CompletableFuture.runAsync(() -> node.process().stop());
            byte[] disconnect = v5.readPacket(30_000);
            assertThat(Mqtt5Packets.reasonCode(disconnect)).isEqualTo(0x9C);
            assertThat(serverReference(disconnect)).isEqualTo(reference);
            stopping.get(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void upgrading_both_nodes_one_after_the_other_under_a_qos1_stream_loses_nothing() throws Exception {
        try (ExtraTransport a = cluster.startTransport("upgrade-a", Map.of("MQTT_MAX_CONNECTION_RATE_PER_IP", 0));
                ExtraTransport b = cluster.startTransport("upgrade-b", Map.of("MQTT_MAX_CONNECTION_RATE_PER_IP", 0));
                SteadyStream stream =
                        new SteadyStream("rolling-upgrade", 1, 100, new int[] {a.mqttPort(), b.mqttPort()})) {
            stream.subscriber(0).subscriber(1).subscriber(0).subscriber(1).startPublishing(0);
            TimeUnit.SECONDS.sleep(2);
            long drainA = upgrade(a);
            TimeUnit.SECONDS.sleep(2);
            long drainB = upgrade(b);
            TimeUnit.SECONDS.sleep(2);
            stream.stopPublishing();
            SteadyStream.Report report = stream.awaitDelivered(90);
            System.out.println(report);
            System.out.printf(
                    "[upgrade] node a stopped in %d ms, node b in %d ms; DISCONNECTs from the server: %s%n",
                    drainA, drainB, stream.serverDisconnects());
            assertThat(report.acknowledged())
                    .as("the stream ran through both upgrades")
                    .isGreaterThan(500);
            assertThat(report.lost()).as("acknowledged QoS 1 messages lost").isZero();
            assertThat(stream.serverDisconnects())
                    .as("clients were told the server shuts down")
                    .containsKey("SERVER_SHUTTING_DOWN");
        }
    }

    /** SIGTERM, wait for the exit, start the same node again (same id and ports), wait until healthy. */
    private static long upgrade(ExtraTransport node) throws Exception {
        long start = System.nanoTime();
        node.process().stop();
        long stoppedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(node.process().exitCode())
                .as("stopped by SIGTERM, not killed")
                .hasValue(143);
        node.process().start();
        node.process().awaitHealthy(node.managementPort(), Duration.ofSeconds(120));
        return stoppedMs;
    }

    /** The Server Reference (property 0x1C) of a DISCONNECT read by {@link RawMqtt#readPacket}. */
    private static String serverReference(byte[] disconnect) throws IOException {
        // first byte, reason code, properties length (one byte here: the properties are short), properties
        int pos = 3;
        int end = 3 + (disconnect[2] & 0xFF);
        while (pos < end) {
            int id = disconnect[pos++] & 0xFF;
            int length = ((disconnect[pos] & 0xFF) << 8) | (disconnect[pos + 1] & 0xFF);
            String value = new String(disconnect, pos + 2, length, StandardCharsets.UTF_8);
            if (id == 0x1C) {
                return value;
            }
            if (id != 0x1F) {
                throw new IOException("unexpected property 0x" + Integer.toHexString(id));
            }
            pos += 2 + length;
        }
        return null;
    }
}
