package io.tributary.deploy.compose;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/compose/init-secrets.sh, run into a temporary directory: it writes every env file docker-compose.yml reads,
 * with random values readable by the owner only, keeps what exists, and takes a value given in the environment.
 */
class ComposeSecretsScriptTest {

    @TempDir
    Path dir;

    private String run(Map<String, String> environment) throws IOException, InterruptedException {
        ProcessBuilder builder =
                new ProcessBuilder("bash", Repo.path(ComposeSecrets.SCRIPT).toString()).redirectErrorStream(true);
        builder.environment().put("SECRETS_DIR", dir.toString());
        builder.environment().remove("POSTGRES_PASSWORD");
        builder.environment().remove("TRIBUTARY_ADMIN_PASSWORD");
        builder.environment().remove("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN");
        builder.environment().remove("TRIBUTARY_INTERNAL_ROUTING_TOKEN");
        builder.environment().remove("REDIS_PASSWORD");
        builder.environment().putAll(environment);
        Process process = builder.start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    private Map<String, String> entries(String file) {
        return ComposeProject.dotEnv(Repo.read(dir.resolve(file)));
    }

    @Test
    void itWritesEveryEnvFileComposeReadsWithRandomValuesOnlyTheOwnerReads() throws Exception {
        assertThat(Files.isExecutable(Repo.path(ComposeSecrets.SCRIPT))).isTrue();
        String output = run(Map.of());
        Set<String> composeFiles = new TreeSet<>();
        ComposeProject.load().services().values().forEach(s -> composeFiles.addAll(s.envFiles()));
        Map<String, Map<String, String>> model = ComposeSecrets.generatedEnvFiles();
        assertThat(model.keySet()).containsExactlyInAnyOrderElementsOf(composeFiles);
        for (Map.Entry<String, Map<String, String>> file : model.entrySet()) {
            String name = file.getKey().substring(ComposeSecrets.DIRECTORY.length());
            Path written = dir.resolve(name);
            assertThat(entries(name)).as(name).containsOnlyKeys(file.getValue().keySet());
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(written)))
                    .as(name)
                    .isEqualTo("rw-------");
        }
        assertThat(entries("postgres.env").get("POSTGRES_PASSWORD")).matches("[0-9a-f]{48}");
        // One token per calling role, each in a file of its own (a transport node reads only its role's file).
        String transport = entries("internal-transport.env").get("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN");
        assertThat(transport).matches("[0-9a-f]{48}");
        assertThat(entries("internal-routing.env").get("TRIBUTARY_INTERNAL_ROUTING_TOKEN"))
                .matches("[0-9a-f]{48}")
                .isNotEqualTo(transport);
        assertThat(dir.resolve("internal.env")).doesNotExist();
        // Hex: it goes into the services' REDIS_URL unescaped.
        assertThat(entries("redis.env").get("REDIS_PASSWORD")).matches("[0-9a-f]{48}");
        String admin = entries("admin.env").get("TRIBUTARY_ADMIN_PASSWORD");
        assertThat(admin).matches("[0-9a-f]{36}");
        assertThat(entries("admin.env")).containsEntry("TRIBUTARY_ADMIN_USER", "admin");
        assertThat(output).as("the admin password is printed once").contains(admin);
    }

    @Test
    void aSecondRunKeepsTheSecretsAndAGivenValueIsUsed() throws Exception {
        run(Map.of("TRIBUTARY_ADMIN_PASSWORD", "chosen-by-the-operator"));
        assertThat(entries("admin.env")).containsEntry("TRIBUTARY_ADMIN_PASSWORD", "chosen-by-the-operator");
        String token = entries("internal-transport.env").get("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN");
        String output = run(Map.of());
        assertThat(entries("internal-transport.env")).containsEntry("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN", token);
        assertThat(entries("admin.env")).containsEntry("TRIBUTARY_ADMIN_PASSWORD", "chosen-by-the-operator");
        assertThat(output).doesNotContain("chosen-by-the-operator");
    }

    /** The former shared token's file is read by nobody now: the script says so, and writes each role's file. */
    @Test
    void aFormerSharedTokenFileIsReportedAndAGivenRoleTokenIsUsed() throws Exception {
        Files.writeString(dir.resolve("internal.env"), "TRIBUTARY_INTERNAL_TOKEN=former-shared-token\n");
        String output = run(Map.of("TRIBUTARY_INTERNAL_ROUTING_TOKEN", "routing-token-of-the-operator"));
        assertThat(output).contains("internal.env (the former shared TRIBUTARY_INTERNAL_TOKEN) is no longer read");
        assertThat(entries("internal-routing.env"))
                .containsExactly(Map.entry("TRIBUTARY_INTERNAL_ROUTING_TOKEN", "routing-token-of-the-operator"));
        assertThat(entries("internal-transport.env").get("TRIBUTARY_INTERNAL_TRANSPORT_TOKEN"))
                .matches("[0-9a-f]{48}");
    }
}
