package io.tributary.it.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.tributary.it.support.Clients;
import io.tributary.it.support.LogsOnFailure;
import io.tributary.it.support.Mqtt5Packets;
import io.tributary.it.support.RawMqtt;
import io.tributary.it.support.TributaryCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/tributary}, the operator CLI, run as a user runs it (its own process, the script file executed through
 * its shebang) against the integration cluster's session-service: sign-in, every command family, its TSV and JSON
 * output, and its exit codes for refused, unauthenticated and unreachable calls. The script runs the cli module's jar
 * (cli/target/tributary-cli.jar, built by the reactor before these tests).
 */
@ExtendWith(LogsOnFailure.class)
class OperatorCliTest {

    private static final Path CLI =
            Path.of("..", "bin", "tributary").toAbsolutePath().normalize();
    private static TributaryCluster cluster;

    @TempDir
    static Path cache;

    @TempDir
    Path config;

    record Run(int exit, String out, String err) {}

    @BeforeAll
    static void cluster() throws Exception {
        cluster = TributaryCluster.shared();
    }

    @Test
    void without_a_token_or_a_server_it_says_so_with_its_exit_codes() throws Exception {
        Run noToken = cli(null, "sessions", "list");
        assertThat(noToken.exit()).isEqualTo(4);
        assertThat(noToken.err()).contains("not signed in: run tributary login, or set TRIBUTARY_TOKEN");

        Run badToken = cliWithToken("not-a-token", "sessions", "list");
        assertThat(badToken.exit()).isEqualTo(4);
        assertThat(badToken.err()).contains("401");

        Run unreachable = cliAt("http://127.0.0.1:1", "not-a-token", "health");
        assertThat(unreachable.exit()).isEqualTo(3);
        assertThat(unreachable.err()).contains("cannot reach http://127.0.0.1:1");

        Run usage = cliWithToken("x", "sessions", "explode");
        assertThat(usage.exit()).isEqualTo(2);
        assertThat(usage.err()).contains("sessions: unknown subcommand 'explode'");
    }

    @Test
    void it_runs_the_cli_modules_jar_with_help_everywhere_and_no_compile_cache() throws Exception {
        assertThat(CLI.resolveSibling(Path.of("..", "cli", "target", "tributary-cli.jar"))
                        .normalize())
                .isRegularFile();
        for (String[] args : List.of(
                new String[] {"--help"}, new String[] {"help"}, new String[] {"sessions", "--help"}, new String[] {
                    "credentials", "import", "--help"
                })) {
            Run help = cliWithToken("x", args);
            assertThat(help.exit()).as(help.err()).isZero();
            assertThat(help.out()).startsWith("Usage: tributary");
        }
        try (var written = Files.list(cache)) {
            assertThat(written)
                    .as("nothing compiled into XDG_CACHE_HOME any more")
                    .isEmpty();
        }
    }

    @Test
    void login_saves_a_private_token_that_later_commands_use() throws Exception {
        Run login = cli(
                TributaryCluster.ADMIN_PASSWORD, "login", "--user", TributaryCluster.ADMIN_USER, "--password-stdin");
        assertThat(login.exit()).as(login.err()).isZero();
        Path token = config.resolve("tributary/token");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(token)))
                .isEqualTo("rw-------");

        Run health = cli(null, "health");
        assertThat(health.exit()).as(health.err()).isZero();
        assertThat(health.out())
                .startsWith("kind\tname\tstatus\tcount\tlag\n")
                .contains("transport\t" + cluster.nodeId(0) + "\talive")
                .contains("routing\t");

        Run wrong = cli("wrong-password", "login", "--user", TributaryCluster.ADMIN_USER, "--password-stdin");
        assertThat(wrong.exit()).isEqualTo(4);

        assertThat(cli(null, "logout").exit()).isZero();
        assertThat(token).doesNotExist();
    }

    @Test
    void sessions_show_list_subscriptions_disconnect_and_remove() throws Exception {
        String clientId = Clients.id("cli");
        try (RawMqtt client = new RawMqtt(cluster.mqttPort(0))) {
            client.send(Mqtt5Packets.connectPersistent(clientId, 60, true, 3600));
            assertThat(Mqtt5Packets.reasonCode(client.readPacket(10_000))).isZero();
            client.send(Mqtt5Packets.subscribe(1, "cli/" + clientId + "/#", 1));
            assertThat(Mqtt5Packets.type(client.readPacket(10_000))).isEqualTo(9);

            Run show = admin("sessions", "show", clientId);
            assertThat(show.exit()).as(show.err()).isZero();
            assertThat(show.out())
                    .contains("session.clientId\t" + clientId + "\n")
                    .contains("session.connected\ttrue");
            assertThat(admin("subscriptions", clientId).out()).contains("cli/" + clientId + "/#");
            Run list = admin("--json", "sessions", "list", "--connected", "true", "--size", "1000");
            assertThat(list.out()).startsWith("{").contains("\"items\"");

            Run disconnect = admin("sessions", "disconnect", clientId);
            assertThat(disconnect.exit()).as(disconnect.err()).isZero();
            byte[] packet = client.readPacket(10_000);
            assertThat(Mqtt5Packets.type(packet)).isEqualTo(14);
            assertThat(Mqtt5Packets.reasonCode(packet))
                    .as("administrative action")
                    .isEqualTo(0x98);
        }
        awaitDisconnected(clientId);
        assertThat(admin("sessions", "remove", clientId).exit()).isZero();
        Run gone = admin("sessions", "show", clientId);
        assertThat(gone.exit()).isEqualTo(1);
        assertThat(gone.err()).contains("404");
    }

    @Test
    void credentials_add_block_import_and_the_block_list() throws Exception {
        String user = Clients.id("cliuser");
        Run add = admin(
                "credentials",
                "add",
                "--username",
                user,
                "--password",
                "a-long-password-1",
                "--publish",
                "meters/%u/#",
                "--subscribe",
                "cmd/%u/#;other/#");
        assertThat(add.exit()).as(add.err()).isZero();
        String id = field(add.out(), "id");
        assertThat(add.out()).contains("publish\tmeters/%u/#").contains("subscribe\tcmd/%u/# other/#");

        Run block = admin("credentials", "block", id);
        assertThat(block.exit()).as(block.err()).isZero();
        assertThat(block.out()).contains("blocked\ttrue").contains("subscribe\tcmd/%u/# other/#");
        assertThat(admin("credentials", "show", id).out()).contains("blocked\ttrue");
        assertThat(admin("credentials", "remove", id).exit()).isZero();

        Path csv = config.resolve("credentials.csv");
        Files.writeString(
                csv,
                "username,password,publish,subscribe\n"
                        + user + "-a,a-long-password-2,\"x/#;y/#\",z/#\n"
                        + user + "-b,a-long-password-3,,\n"
                        + ",no-identity-here,,\n");
        Run imported = admin("credentials", "import", csv.toString());
        assertThat(imported.exit()).isEqualTo(1);
        assertThat(imported.out()).contains("created\t2").contains("failed\t1");
        assertThat(imported.err()).contains("line 4: POST /api/v1/auth/credentials: 400");
        assertThat(admin("--json", "credentials", "list", "--size", "1000").out())
                .contains("\"username\":\"" + user + "-a\"")
                .contains("\"x/#\",\"y/#\"");

        String client = Clients.id("cliblocked");
        Run blocked = admin("block", "add", "--client-id", client, "--reason", "cli test");
        assertThat(blocked.exit()).as(blocked.err()).isZero();
        assertThat(admin("block", "list", "--size", "1000").out())
                .contains(client + "\t")
                .contains("cli test");
        String blockId = admin("--json", "block", "list", "--size", "1000")
                .out()
                .replaceAll("(?s).*\\{\"id\":(\\d+),\"clientId\":\"" + client + "\".*", "$1");
        assertThat(admin("block", "remove", blockId).exit()).isZero();
        assertThat(admin("block", "list", "--size", "1000").out()).doesNotContain(client);
    }

    @Test
    void retained_messages_and_the_kafka_view() throws Exception {
        String topic = "cli/retained/" + Clients.id("t");
        Mqtt5BlockingClient publisher = Clients.hive5(cluster.mqttPort(1), Clients.id("clipub"));
        publisher.connect();
        publisher
                .publishWith()
                .topic(topic)
                .payload("kept".getBytes(StandardCharsets.UTF_8))
                .qos(MqttQos.AT_LEAST_ONCE)
                .retain(true)
                .send();
        publisher.disconnect();
        Run list = null;
        for (int i = 0; i < 50; i++) {
            list = admin("retained", "list", "cli/retained/");
            if (list.out().contains(topic)) {
                break;
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
        assertThat(list.out()).contains(topic);
        assertThat(admin("retained", "delete", topic).exit()).isZero();
        assertThat(admin("retained", "list", "cli/retained/").out()).doesNotContain(topic);
        Run again = admin("retained", "delete", topic);
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("404").contains("no retained message on topic " + topic);

        assertThat(admin("kafka", "topics").out()).contains("tributary.publish");
        assertThat(admin("kafka", "groups").out()).contains("tributary-routing");
    }

    private void awaitDisconnected(String clientId) throws Exception {
        for (int i = 0; i < 50; i++) {
            if (admin("sessions", "show", clientId).out().contains("session.connected\tfalse")) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    private static String field(String keyValues, String key) {
        return Arrays.stream(keyValues.split("\n"))
                .filter(line -> line.startsWith(key + "\t"))
                .map(line -> line.substring(key.length() + 1))
                .findFirst()
                .orElseThrow();
    }

    private Run admin(String... args) throws Exception {
        return cliWithToken(AdminToken.get(), args);
    }

    private Run cliWithToken(String token, String... args) throws Exception {
        return cliAt(cluster.sessionApiUrl(), token, args);
    }

    private Run cli(String stdin, String... args) throws Exception {
        return run(cluster.sessionApiUrl(), null, stdin, args);
    }

    private Run cliAt(String url, String token, String... args) throws Exception {
        return run(url, token, null, args);
    }

    private Run run(String url, String token, String stdin, String... args) throws Exception {
        Path cacheHome = cache;
        List<String> command = new ArrayList<>();
        command.add(CLI.toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("TRIBUTARY_URL", url);
        builder.environment().put("XDG_CONFIG_HOME", config.toString());
        builder.environment().put("XDG_CACHE_HOME", cacheHome.toString());
        builder.environment().remove("TRIBUTARY_TOKEN");
        if (token != null) {
            builder.environment().put("TRIBUTARY_TOKEN", token);
        }
        Process process = builder.start();
        if (stdin != null) {
            process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        process.getOutputStream().close();
        String out = read(process.getInputStream());
        String err = read(process.getErrorStream());
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("tributary " + command + " did not finish within 60 s");
        }
        return new Run(process.exitValue(), out, err);
    }

    private static String read(java.io.InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    /** The admin token of the shared cluster, fetched once through the test support (not through the CLI). */
    private static final class AdminToken {
        private static String token;

        static synchronized String get() {
            if (token == null) {
                token = io.tributary.it.support.AdminRequests.token(cluster.sessionApiUrl());
            }
            return token;
        }
    }
}
