package io.tributary.it.conformance;

import static io.tributary.it.support.Clients.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.TributaryCluster;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A second client implementation outside Java: the npm {@code mqtt} package (MQTT.js 5, pinned with its lock file in
 * {@code src/test/mqtt-js}), run by Node against the cluster. Like many real clients it does not wait: calls made back
 * to back (publishes, SUBSCRIBEs, an UNSUBSCRIBE and a PUBLISH) go out on the socket back to back. The scenarios
 * ({@code scenarios.mjs}) report what they saw as JSON; the assertions, from the MQTT 3.1.1 / 5.0 normative
 * statements, are here. Each runs in MQTT 3.1.1 and 5.0. The package is installed with {@code npm ci} into
 * {@code target/mqtt-js} on first use; skipped with a message where Node or npm is missing.
 */
@ExtendWith(LogsOnFailure.class)
class MqttJsClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static TributaryCluster cluster;
    private static Path dir;

    @BeforeAll
    static void install() throws Exception {
        assumeTrue(onPath("node") && onPath("npm"), "node / npm not installed: the MQTT.js client cannot run");
        dir = Path.of("target", "mqtt-js").toAbsolutePath();
        Files.createDirectories(dir);
        Path source = Path.of("src", "test", "mqtt-js");
        for (String file : List.of("package.json", "package-lock.json", "scenarios.mjs")) {
            Files.copy(source.resolve(file), dir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.exists(dir.resolve("node_modules/mqtt/package.json"))) {
            run(List.of("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"), 300);
        }
        cluster = TributaryCluster.shared();
    }

    /**
     * 200 QoS 1 and 200 QoS 2 publishes written without waiting, publisher and subscriber on different nodes: each
     * is acknowledged, and the subscriber gets every one once, in the order published (MQTT 4.3.2, 4.3.3, 4.6).
     */
    @Test
    void pipelined_qos1_and_qos2_publishes_arrive_once_each_in_order_across_nodes() throws Exception {
        JsonNode result = scenario("qosAcrossNodes");
        for (String run : List.of("v4-qos1", "v4-qos2", "v5-qos1", "v5-qos2")) {
            JsonNode r = result.get(run);
            String topic = topic(r);
            assertThat(r.get("acksFailed"))
                    .as("%s: acknowledgements that failed", run)
                    .isEmpty();
            assertThat(strings(r.get("received")))
                    .as("%s: messages received", run)
                    .containsExactlyElementsOf(IntStream.range(0, 200)
                            .mapToObj(i -> topic + " m" + i)
                            .toList());
        }
    }

    /**
     * 50 SUBSCRIBEs and a PUBLISH matching the last, written before any SUBACK is read: every SUBSCRIBE is granted
     * and the PUBLISH is delivered once to the subscription sent before it (MQTT 3.8.4, 4.6).
     */
    @Test
    void pipelined_subscribes_are_all_granted_and_the_publish_behind_them_is_delivered() throws Exception {
        JsonNode result = scenario("pipelinedSubscribes");
        for (String run : List.of("v4", "v5")) {
            JsonNode r = result.get(run);
            assertThat(strings(r.get("granted")))
                    .as("%s: granted QoS per SUBSCRIBE", run)
                    .hasSize(50)
                    .containsOnly("1");
            assertThat(r.get("acksFailed")).as("%s: PUBACK", run).isEmpty();
            assertThat(strings(r.get("received")))
                    .as("%s: the publish behind the SUBSCRIBEs", run)
                    .singleElement()
                    .asString()
                    .endsWith("/f49/x behind-50");
        }
    }

    /** An UNSUBSCRIBE and a PUBLISH to the removed subscription, back to back: the publish is not delivered. */
    @Test
    void publish_pipelined_behind_an_unsubscribe_is_not_delivered() throws Exception {
        JsonNode result = scenario("pipelinedUnsubscribe");
        for (String run : List.of("v4", "v5")) {
            JsonNode r = result.get(run);
            assertThat(r.get("unsuback").asText()).as("%s: UNSUBACK", run).isEqualTo("ok");
            assertThat(r.get("acksFailed")).as("%s: PUBACK", run).isEmpty();
            assertThat(r.get("received"))
                    .as("%s: delivered after the UNSUBSCRIBE", run)
                    .isEmpty();
        }
    }

    /**
     * A persistent session (3.1.1 clean session 0; 5.0 session expiry 300 s) that went offline gets the QoS 1
     * messages published meanwhile on reconnecting to the other node, with Session Present, in order.
     */
    @Test
    void persistent_session_resumes_on_the_other_node_with_its_queued_messages() throws Exception {
        JsonNode result = scenario("persistentResume");
        for (String run : List.of("v4", "v5")) {
            JsonNode r = result.get(run);
            assertThat(r.get("sessionPresent").asBoolean())
                    .as("%s: Session Present", run)
                    .isTrue();
            assertThat(r.get("acksFailed")).as("%s: PUBACKs", run).isEmpty();
            assertThat(strings(r.get("received")))
                    .as("%s: queued messages", run)
                    .hasSize(3)
                    .allMatch(m -> m.endsWith("/resume queued-" + m.charAt(m.length() - 1)))
                    .extracting(m -> m.substring(m.length() - 1))
                    .containsExactly("1", "2", "3");
        }
    }

    private static JsonNode scenario(String name) throws Exception {
        String out = run(
                List.of(
                        "node",
                        "scenarios.mjs",
                        name,
                        String.valueOf(cluster.mqttPort(0)),
                        String.valueOf(cluster.mqttPort(1)),
                        "it/js/" + id("js")),
                150);
        String last = out.lines().reduce((a, b) -> b).orElse("");
        return JSON.readTree(last);
    }

    private static String topic(JsonNode run) {
        String first = run.get("received").path(0).asText("");
        return first.contains(" ") ? first.substring(0, first.indexOf(' ')) : "(nothing received)";
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(n -> values.add(n.asText()));
        return values;
    }

    /** Runs a command in the scenarios' directory; its output, or a failed assertion with it. */
    private static String run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        byte[][] output = new byte[1][];
        Thread reader = new Thread(
                () -> {
                    try {
                        output[0] = p.getInputStream().readAllBytes();
                    } catch (IOException e) {
                        output[0] = e.toString().getBytes(StandardCharsets.UTF_8);
                    }
                },
                "mqtt-js-output");
        reader.start();
        boolean finished = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!finished) {
            p.destroyForcibly();
        }
        reader.join(5_000);
        String text = output[0] == null ? "" : new String(output[0], StandardCharsets.UTF_8);
        assertThat(finished)
                .as("%s finished in %d s: %s", command, timeoutSeconds, text)
                .isTrue();
        assertThat(p.exitValue()).as("%s: %s", command, text).isZero();
        return text;
    }

    private static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (new File(d, tool).canExecute()) {
                return true;
            }
        }
        return false;
    }
}
