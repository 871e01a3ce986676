package io.tributary.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.NodeProbe;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fuzzing one transport node of the shared cluster: at least 100,000 packets — valid MQTT 3.1.1 and 5.0 packets of
 * every kind, a share of them mutated (bit flips, truncation, wrong and huge remaining lengths, random bytes,
 * garbage and duplicated properties, invalid UTF-8, reserved flags, wrong packet types, hostile first packets) —
 * over hundreds of connections, each ended by a protocol violation whose outcome the specification fixes. Meanwhile
 * well-behaved clients exchange QoS 1 messages on that node and across nodes. Reproduce a run with
 * {@code -Dfuzz.seed=<the printed seed>}.
 */
@ExtendWith(LogsOnFailure.class)
class HostileInputTest {

    private static final int NODE = 0;
    private static final long PACKET_TARGET = 100_000;
    private static final int WORKERS = 8;
    private static final long FUZZ_BUDGET_SECONDS = 60;

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void hostile_packets_close_only_their_own_connections_and_leave_the_node_healthy() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime() % 1_000_000_000L);
        System.out.println("[fuzz] seed " + seed + " (reproduce with -Dfuzz.seed=" + seed + ")");
        NodeProbe node = new NodeProbe(cluster, NODE);
        String before = node.scrape();
        double heapMax = NodeProbe.sum(before, "jvm_memory_max_bytes", "area=\"heap\"");
        double oldBefore = NodeProbe.sum(before, "jvm_memory_used_bytes", "area=\"heap\"", "Tenured Gen");

        FuzzStats stats = new FuzzStats();
        double heapPeak = 0;
        int published;
        List<Integer> missing;
        long started = System.nanoTime();
        try (WellBehavedTraffic traffic = new WellBehavedTraffic(
                cluster.mqttPort(NODE), new int[] {cluster.mqttPort(NODE), cluster.mqttPort(1)}, 64, 20)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FUZZ_BUDGET_SECONDS);
            List<Thread> workers = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) {
                Thread t = new Thread(
                        new FuzzWorker(cluster.mqttPort(NODE), seed, w, stats, PACKET_TARGET, deadline), "fuzz-" + w);
                t.start();
                workers.add(t);
            }
            for (Thread t : workers) {
                while (t.isAlive()) {
                    t.join(1_000);
                    heapPeak = Math.max(heapPeak, node.heapUsed());
                }
            }
            published = traffic.stop();
            missing = traffic.missingAfter(20_000);
            System.out.printf(
                    "[fuzz] well-behaved: %d QoS 1 messages to 2 subscribers (node %d and node 1), "
                            + "missing %s, latency p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                    published, NODE, missing, traffic.latencyMs(50), traffic.latencyMs(99), traffic.latencyMs(100));
            assertThat(missing)
                    .as("QoS 1 messages lost by well-behaved subscribers")
                    .containsOnly(0);
            assertThat(traffic.latencyMs(99))
                    .as("p99 latency of well-behaved traffic, ms")
                    .isLessThan(3_000);
        }
        double seconds = (System.nanoTime() - started) / 1e9;

        String after = node.scrape();
        double heapAfter = NodeProbe.sum(after, "jvm_memory_used_bytes", "area=\"heap\"");
        double oldAfter = NodeProbe.sum(after, "jvm_memory_used_bytes", "area=\"heap\"", "Tenured Gen");
        System.out.printf(
                "[fuzz] %d packets (%d mutated, %d probes) over %d connections in %.1f s by %d threads%n",
                stats.packets.sum(),
                stats.mutated.sum(),
                stats.probes.sum(),
                stats.connections.sum(),
                seconds,
                WORKERS);
        stats.counts().forEach((k, v) -> System.out.println("[fuzz]   " + k + ": " + v));
        System.out.printf(
                "[fuzz] slowest well-formed pipelined stream answered in %d ms%n",
                TimeUnit.NANOSECONDS.toMillis(stats.slowestStream.get()));
        System.out.println(
                "[fuzz] node closes by cause (tributary_protocol_errors_total, delta): " + causes(before, after));
        System.out.printf(
                "[fuzz] node heap: max %.0f MB, before %.0f MB (old gen %.0f MB), peak %.0f MB, "
                        + "after %.0f MB (old gen %.0f MB)%n",
                heapMax / 1e6,
                NodeProbe.sum(before, "jvm_memory_used_bytes", "area=\"heap\"") / 1e6,
                oldBefore / 1e6,
                heapPeak / 1e6,
                heapAfter / 1e6,
                oldAfter / 1e6);

        assertThat(stats.failures)
                .as("protocol violations not answered as specified (seed " + seed + ")")
                .isEmpty();
        assertThat(stats.packets.sum()).as("packets sent within the budget").isGreaterThanOrEqualTo(PACKET_TARGET);
        assertThat(stats.connections.sum()).isGreaterThanOrEqualTo(300);
        assertThat(node.health()).startsWith("200").contains("\"UP\"");
        assertThat(heapAfter).as("heap after the run, bytes").isLessThan(0.85 * heapMax);
        assertThat(oldAfter - oldBefore).as("old generation growth, bytes").isLessThan(96e6);
        assertThat(node.stackTracesSinceStart())
                .as("exceptions or leaks in the node's log")
                .isEmpty();
        everyEventLoopAnswers();
        newClientsStillConnectSubscribeAndReceive();
    }

    /** The node runs 2 x cores event loops, given connections in turn: a PINGRESP on each of 16 proves them alive. */
    private static void everyEventLoopAnswers() throws Exception {
        List<RawMqtt> raws = new ArrayList<>();
        try {
            for (int i = 0; i < 16; i++) {
                RawMqtt raw = new RawMqtt(cluster.mqttPort(NODE));
                raws.add(raw);
                raw.send(RawMqtt.connect311(Clients.id("loop"), 30));
                assertThat(raw.readPacket(10_000))
                        .as("CONNACK on connection %d", i)
                        .isNotNull();
                raw.send(new byte[] {(byte) 0xC0, 0});
                byte[] pong = raw.readPacket(10_000);
                assertThat(pong).as("PINGRESP on connection %d", i).isNotNull();
                assertThat(pong[0] & 0xFF).isEqualTo(0xD0);
            }
        } finally {
            for (RawMqtt raw : raws) {
                raw.close();
            }
        }
    }

    /** The downlink consumer and session calls still work: a new subscriber gets a message from the other node. */
    private static void newClientsStillConnectSubscribeAndReceive() {
        String topic = "it/hostile/after/" + Clients.id("t");
        Mqtt5BlockingClient subscriber = Clients.hive5(cluster.mqttPort(NODE), Clients.id("after-sub"));
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(1), Clients.id("after-pub"));
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
                    .payload(new byte[] {7})
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send();
            assertThat(in.receive(15, TimeUnit.SECONDS))
                    .as("delivery after the fuzz run")
                    .isPresent();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        } finally {
            publisher.disconnect();
            subscriber.disconnect();
        }
    }

    private static Map<String, Long> causes(String before, String after) {
        Map<String, Long> out = new TreeMap<>();
        for (String line : after.split("\n")) {
            if (line.startsWith("tributary_protocol_errors_total{")) {
                int at = line.indexOf("cause=\"") + 7;
                String cause = line.substring(at, line.indexOf('"', at));
                double delta = NodeProbe.sum(after, "tributary_protocol_errors_total", "cause=\"" + cause + "\"")
                        - NodeProbe.sum(before, "tributary_protocol_errors_total", "cause=\"" + cause + "\"");
                if (delta > 0) {
                    out.put(cause, (long) delta);
                }
            }
        }
        return out;
    }
}
