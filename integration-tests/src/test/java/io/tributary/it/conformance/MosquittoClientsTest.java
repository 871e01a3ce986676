package io.tributary.it.conformance;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An independent client implementation against the cluster: Debian's {@code mosquitto_pub} / {@code mosquitto_sub}
 * (libmosquitto, package mosquitto-clients; {@code .ci/run} installs it when missing), publisher and subscriber on
 * different transport nodes. Skipped with a message where the tools are not installed.
 */
@ExtendWith(LogsOnFailure.class)
class MosquittoClientsTest {

    private static TributaryCluster cluster;

    @BeforeAll
    static void cluster() throws Exception {
        assumeTrue(
                onPath("mosquitto_sub") && onPath("mosquitto_pub") && onPath("stdbuf"),
                "mosquitto_pub / mosquitto_sub not installed (Debian: apt-get install -y mosquitto-clients)");
        cluster = TributaryCluster.shared();
    }

    @Test
    void qos1_and_qos2_across_nodes_in_mqtt311_and_mqtt5() throws Exception {
        for (String version : new String[] {"mqttv311", "mqttv5"}) {
            String topic = "it/mosq/" + id("qos");
            Subscriber sub = Subscriber.start(cluster.mqttPort(0), "-V", version, "-q", "2", "-t", topic, "-C", "2");
            pub(cluster.mqttPort(1), "-V", version, "-q", "1", "-t", topic, "-m", "one");
            pub(cluster.mqttPort(1), "-V", version, "-q", "2", "-t", topic, "-m", "two");
            assertThat(sub.finish()).as(version).containsExactly(topic + " one", topic + " two");
        }
    }

    @Test
    void retained_message_is_sent_to_a_later_subscriber_on_the_other_node() throws Exception {
        String topic = "it/mosq/" + id("retained");
        pub(cluster.mqttPort(1), "-q", "1", "-r", "-t", topic, "-m", "kept");
        Subscriber sub = Subscriber.start(cluster.mqttPort(0), "-V", "mqttv5", "-q", "1", "-t", topic, "-C", "1");
        assertThat(sub.finish()).containsExactly(topic + " kept");
        pub(cluster.mqttPort(1), "-q", "1", "-r", "-n", "-t", topic);
    }

    @Test
    void will_of_a_killed_client_reaches_a_subscriber_on_the_other_node() throws Exception {
        String willTopic = "it/mosq/" + id("will");
        Subscriber watcher = Subscriber.start(cluster.mqttPort(0), "-q", "1", "-t", willTopic, "-C", "1");
        Subscriber doomed = Subscriber.start(
                cluster.mqttPort(1),
                "-t",
                "it/mosq/" + id("idle"),
                "-k",
                "30",
                "--will-topic",
                willTopic,
                "--will-payload",
                "gone",
                "--will-qos",
                "1");
        doomed.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertThat(watcher.finish()).containsExactly(willTopic + " gone");
    }

    @Test
    void persistent_session_resumes_on_the_other_node_in_mqtt311_and_mqtt5() throws Exception {
        // MQTT 5: the reconnect carries no Session Expiry Interval (-x 0), the session still resumes (3.1.2.4).
        String[][] versions = {{"-V", "mqttv311"}, {"-V", "mqttv5", "-x", "300"}};
        String[][] reconnects = {{"-V", "mqttv311"}, {"-V", "mqttv5", "-x", "0"}};
        for (int v = 0; v < versions.length; v++) {
            String clientId = id("mosqres");
            String topic = "it/mosq/" + id("resume");
            List<String> first = new ArrayList<>(List.of(versions[v]));
            first.addAll(List.of("-c", "-i", clientId, "-q", "1", "-t", topic, "-E"));
            Subscriber.start(cluster.mqttPort(0), first.toArray(String[]::new)).finish();
            for (int i = 1; i <= 3; i++) {
                pub(cluster.mqttPort(1), "-q", "1", "-t", topic, "-m", "queued-" + i);
            }
            Thread.sleep(1_000);
            List<String> again = new ArrayList<>(List.of(reconnects[v]));
            again.addAll(List.of("-c", "-i", clientId, "-q", "1", "-t", topic, "-C", "3"));
            assertThat(Subscriber.start(cluster.mqttPort(1), again.toArray(String[]::new))
                            .finish())
                    .as(String.join(" ", reconnects[v]))
                    .containsExactly(topic + " queued-1", topic + " queued-2", topic + " queued-3");
        }
    }

    private static void pub(int port, String... args) throws Exception {
        List<String> command = new ArrayList<>(
                List.of("mosquitto_pub", "-h", "127.0.0.1", "-p", String.valueOf(port), "-i", id("mosqpub")));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("mosquitto_pub finished").isTrue();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue())
                .as("mosquitto_pub " + String.join(" ", args) + ": " + output)
                .isZero();
    }

    /** A mosquitto_sub process printing "topic payload" lines (-v), started once its SUBACK came (-d). */
    private record Subscriber(Process process, List<String> messages, BlockingQueue<String> debug) {

        static Subscriber start(int port, String... args) throws Exception {
            // Line-buffered (coreutils stdbuf), so its SUBACK line arrives while it runs, not when it exits.
            List<String> command = new ArrayList<>(List.of(
                    "stdbuf",
                    "-oL",
                    "mosquitto_sub",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    String.valueOf(port),
                    "-v",
                    "-d",
                    "-W",
                    "30"));
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            Subscriber s = new Subscriber(p, new CopyOnWriteArrayList<>(), new LinkedBlockingQueue<>());
            Thread reader = new Thread(() -> s.read(p), "mosquitto_sub-output");
            reader.setDaemon(true);
            reader.start();
            // Until its SUBACK, or until it exits (a resumed session's queued messages may reach -C before SUBACK).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (true) {
                String line = s.debug.poll(100, TimeUnit.MILLISECONDS);
                if ((line != null && line.contains("received SUBACK")) || (line == null && !p.isAlive())) {
                    return s;
                }
                assertThat(System.nanoTime())
                        .as("mosquitto_sub subscribed: " + String.join(" ", args))
                        .isLessThan(deadline);
            }
        }

        private void read(Process p) {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith("Client ") || line.startsWith("Subscribed ")) {
                        debug.add(line);
                    } else {
                        messages.add(line);
                    }
                }
            } catch (IOException e) {
                debug.add("read failed: " + e);
            }
        }

        /** Waits for the process to exit (its -C count reached, or -W) and returns the messages it printed. */
        List<String> finish() throws Exception {
            assertThat(process.waitFor(40, TimeUnit.SECONDS))
                    .as("mosquitto_sub exited")
                    .isTrue();
            Thread.sleep(100);
            return messages;
        }
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (new File(dir, tool).canExecute()) {
                return true;
            }
        }
        return false;
    }
}
