package io.tributary.deploy.scripts;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/kafka/setup-kafka.sh, run against stand-ins of kafka-configs.sh and kafka-acls.sh that record their
 * arguments (no broker here): it logs in as the broker principal, creates each service's SCRAM-SHA-512 user with its
 * password, and turns every line of acls.conf into one {@code kafka-acls.sh --add}, so what the deployments apply is
 * what acls.conf (and the integration test KafkaAclTest, which reads it) says.
 */
class KafkaSetupScriptTest {

    @TempDir
    Path dir;

    private String run(Map<String, String> environment) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String tool : List.of("kafka-configs.sh", "kafka-acls.sh")) {
            Path stub = bin.resolve(tool);
            // Records its arguments and the client settings file it was given (deleted when the script ends).
            Files.writeString(
                    stub,
                    "#!/usr/bin/env bash\n"
                            + "echo \"" + tool + " $*\" >> \"" + dir.resolve("calls") + "\"\n"
                            + "while [[ $# -gt 0 ]]; do [[ $1 == --command-config ]] && cat \"$2\" > \""
                            + dir.resolve("client.properties") + "\"; shift; done\n");
            Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwx------"));
        }
        ProcessBuilder builder = new ProcessBuilder(
                        "bash", Repo.path("deploy/kafka/setup-kafka.sh").toString())
                .redirectErrorStream(true);
        builder.environment().put("KAFKA_BIN", bin.toString());
        builder.environment().putAll(environment);
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    @Test
    void itCreatesTheThreeUsersAndOneAclCallPerLineAsTheBrokerPrincipal() throws Exception {
        run(Map.of(
                "KAFKA_BOOTSTRAP", "kafka:9092",
                "KAFKA_ADMIN_PASSWORD", "a1",
                "KAFKA_TRANSPORT_PASSWORD", "t1",
                "KAFKA_ROUTING_PASSWORD", "r1",
                "KAFKA_SESSION_PASSWORD", "s1"));
        List<String> calls = Files.readAllLines(dir.resolve("calls"));
        List<String> configs =
                calls.stream().filter(c -> c.startsWith("kafka-configs.sh")).toList();
        assertThat(configs).hasSize(3);
        assertThat(configs.get(0)).matches(configs("transport", "t1"));
        assertThat(configs.get(1)).matches(configs("routing", "r1"));
        assertThat(configs.get(2)).matches(configs("session", "s1"));
        List<String> lines = Repo.read("deploy/kafka/acls.conf")
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .toList();
        List<String> acls =
                calls.stream().filter(c -> c.startsWith("kafka-acls.sh")).toList();
        assertThat(acls).hasSameSizeAs(lines);
        for (int i = 0; i < lines.size(); i++) {
            String[] f = lines.get(i).split("\\s+");
            StringBuilder expected = new StringBuilder("--add --allow-principal User:" + f[0]
                    + " --resource-pattern-type " + f[2] + " --" + f[1] + " " + f[3]);
            for (String operation : f[4].split(",")) {
                expected.append(" --operation ").append(operation);
            }
            assertThat(acls.get(i)).as(lines.get(i)).endsWith(expected.toString());
            assertThat(acls.get(i)).startsWith("kafka-acls.sh --bootstrap-server kafka:9092 --command-config ");
        }
        assertThat(Files.readString(dir.resolve("client.properties")))
                .contains("security.protocol=SASL_PLAINTEXT")
                .contains("sasl.mechanism=PLAIN")
                .contains("username=\"admin\" password=\"a1\"");
    }

    @Test
    void aMissingPasswordStopsItBeforeAnyCall() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(
                        "bash", Repo.path("deploy/kafka/setup-kafka.sh").toString())
                .redirectErrorStream(true);
        builder.environment().put("KAFKA_BIN", dir.toString());
        builder.environment().put("KAFKA_BOOTSTRAP", "kafka:9092");
        builder.environment().remove("KAFKA_ADMIN_PASSWORD");
        Process process = builder.start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isNotZero();
        assertThat(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .contains("KAFKA_ADMIN_PASSWORD is not set");
        assertThat(dir.resolve("calls")).doesNotExist();
    }

    /** The call that creates or updates {@code user}'s SCRAM credential (the settings file's path varies). */
    private static String configs(String user, String password) {
        return java.util.regex.Pattern.quote("kafka-configs.sh --bootstrap-server kafka:9092 --command-config ")
                + "\\S+"
                + java.util.regex.Pattern.quote(" --alter --entity-type users --entity-name " + user
                        + " --add-config SCRAM-SHA-512=[iterations=8192,password=" + password + "]");
    }
}
