package io.tributary.deploy.scripts;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.support.Repo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The k8s/aws scripts: valid bash, every file they name exists, and the names they share with the manifests and
 * poms (services, overlays, the perf Job defaults they substitute) agree. They talk to AWS, so nothing here runs
 * them.
 */
class ScriptsTest {

    private static final Path SCRIPTS = Repo.path("k8s/aws/scripts");

    private static List<Path> scripts() throws IOException {
        try (Stream<Path> files = Files.list(SCRIPTS)) {
            return files.filter(f -> f.toString().endsWith(".sh")).sorted().toList();
        }
    }

    @Test
    void everyScriptIsValidBash() throws Exception {
        List<Path> scripts = scripts();
        assertThat(scripts)
                .extracting(p -> p.getFileName().toString())
                .contains(
                        "create-cluster.sh",
                        "install.sh",
                        "upgrade.sh",
                        "delete.sh",
                        "build-images.sh",
                        "perf-run.sh",
                        "managed-backends.sh",
                        "common.sh");
        for (Path script : scripts) {
            Process bash = new ProcessBuilder("bash", "-n", script.toString())
                    .redirectErrorStream(true)
                    .start();
            assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
            String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(bash.exitValue()).as(script + ": " + output).isZero();
            if (!script.getFileName().toString().equals("common.sh")) {
                assertThat(Files.isExecutable(script))
                        .as(script + " is executable")
                        .isTrue();
                assertThat(Repo.read(script))
                        .as(script.toString())
                        .startsWith("#!/usr/bin/env bash\n")
                        .contains("common.sh");
            }
        }
    }

    @Test
    void everyFileTheScriptsNameExists() throws IOException {
        Pattern reference = Pattern.compile("\\$(AWS_DIR|REPO_ROOT)/([A-Za-z0-9_./-]+)");
        List<String> missing = new ArrayList<>();
        for (Path script : scripts()) {
            Matcher matcher = reference.matcher(Repo.read(script));
            while (matcher.find()) {
                Path base = matcher.group(1).equals("AWS_DIR") ? Repo.path("k8s/aws") : Repo.root();
                String relative = matcher.group(2).replaceAll("/$", "");
                if (!relative.contains("$")
                        && !relative.startsWith(".build")
                        && !relative.startsWith("perf-results")
                        && !Files.exists(base.resolve(relative))) {
                    missing.add(script.getFileName() + ": " + matcher.group());
                }
            }
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void theScriptsKnowTheServicesAndOverlays() {
        String common = Repo.read(SCRIPTS.resolve("common.sh"));
        assertThat(common).contains("SERVICES=(" + String.join(" ", ServiceCatalog.MODULES) + ")");
        String install = Repo.read(SCRIPTS.resolve("install.sh"));
        for (String overlay : List.of("in-cluster", "aws-managed")) {
            assertThat(Repo.path("k8s/aws/overlays/" + overlay + "/kustomization.yaml"))
                    .isRegularFile();
            assertThat(install).contains(overlay + ")");
        }
        for (String envFile : List.of("kafka.env", "session-stores.env")) {
            assertThat(install).contains("overlays/aws-managed/" + envFile);
            assertThat(Repo.read("k8s/aws/overlays/aws-managed/" + envFile))
                    .as("the committed file is a template install.sh refuses")
                    .contains("replace-me");
        }
    }

    /** install.sh installs through the chart, with values the chart has (a misspelt key would be ignored by Helm). */
    @Test
    void theInstallScriptInstallsTheChartWithValuesItDefines() {
        String install = Repo.read(SCRIPTS.resolve("install.sh"));
        assertThat(install)
                .contains("chart=\"$REPO_ROOT/k8s/helm/tributary\"")
                .contains("helm upgrade --install tributary \"$chart\"")
                .contains("-f \"$chart/values-aws-managed.yaml\"")
                .doesNotContain("kubectl apply -k");
        java.util.Map<String, Object> values =
                io.tributary.deploy.support.Yamls.load(Repo.read("k8s/helm/tributary/values.yaml"));
        Matcher written =
                Pattern.compile("echo \"(?<indent> *)(?<key>[A-Za-z]+):").matcher(install);
        String parent = null;
        int keys = 0;
        while (written.find()) {
            String key = written.group("key");
            if (written.group("indent").isEmpty()) {
                parent = key;
            }
            String path = written.group("indent").isEmpty() ? key : parent + "." + key;
            assertThat(io.tributary.deploy.support.Yamls.at(values, path))
                    .as("values.yaml has " + path)
                    .isNotNull();
            keys++;
        }
        assertThat(keys).as("values install.sh writes").isEqualTo(10);
    }

    @Test
    void thePerfJobDefaultsTheRunScriptReplacesArePresent() {
        String run = Repo.read(SCRIPTS.resolve("perf-run.sh"));
        String jobs = Repo.read("k8s/aws/perf/perf-jobs.yaml");
        Matcher substitution =
                Pattern.compile("-e \"s\\|(value: [^|]+?)\\\\?\\$?\\|").matcher(run);
        int count = 0;
        while (substitution.find()) {
            String literal = substitution.group(1);
            assertThat(jobs.split("value: " + Pattern.quote(literal.substring("value: ".length())) + "\n", -1))
                    .as("perf-jobs.yaml holds '" + literal + "' once per Job")
                    .hasSize(3);
            count++;
        }
        assertThat(count).as("substitutions found in perf-run.sh").isEqualTo(3);
    }
}
