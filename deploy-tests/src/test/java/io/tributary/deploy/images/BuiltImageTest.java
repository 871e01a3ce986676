package io.tributary.deploy.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tributary.deploy.support.Repo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The image tars {@code ./mvnw -Pimages package} wrote ({@code <module>/target/jib-image.tar}), when they exist:
 * a readable docker-archive whose config carries what the pom configures (non-root user, entry point with the JVM
 * flags and the main class, exposed ports, environment, labels with the project version) and a Java home from the
 * base image. Skipped when the images were not built (the default {@code ./mvnw verify} does not build them;
 * docs/deploy.md, "Container images"), unless {@code -Dtributary.images.required=true} (.ci/images) makes a
 * missing tar a failure.
 */
class BuiltImageTest {

    @ParameterizedTest
    @ValueSource(strings = {"transport-service", "routing-service", "session-service"})
    void theBuiltImageCarriesThePomConfiguration(String module) {
        Path tar = Repo.path(module + "/target/jib-image.tar");
        String notBuilt = module + ": no " + tar + " (images not built; run "
                + "deploy/images/build-base-image.sh && ./mvnw -B -Pimages -DskipTests package, or .ci/images)";
        if (Boolean.getBoolean("tributary.images.required")) {
            assertThat(tar).as(notBuilt).isRegularFile();
        }
        assumeTrue(Files.isRegularFile(tar), notBuilt);
        JibImage pom = JibImage.fromPom(Repo.path(module + "/pom.xml"));
        ImageTar image = ImageTar.read(tar);
        String version = Repo.projectVersion();

        assertThat(image.repoTags()).as(module).containsExactly("tributary/" + module + ":" + version);
        assertThat(image.layers()).as(module + ": layers").isNotEmpty().allMatch(image.entrySizes()::containsKey);
        assertThat(image.diffIds()).as(module + ": one diff id per layer").hasSameSizeAs(image.layers());
        assertThat(image.config().get("os").getAsString()).isEqualTo("linux");

        assertThat(image.user()).as(module + ": user").isEqualTo(pom.user()).matches("[1-9][0-9]*:[1-9][0-9]*");

        List<String> entrypoint = image.entrypoint();
        assertThat(entrypoint)
                .as(module + ": entry point")
                .startsWith("java")
                .endsWith(pom.mainClass())
                .containsAll(pom.jvmFlags())
                .contains("-cp");

        List<String> ports = new ArrayList<>();
        pom.ports().forEach(port -> ports.add(port + "/tcp"));
        assertThat(image.exposedPorts()).as(module + ": exposed ports").containsExactlyInAnyOrderElementsOf(ports);

        Map<String, String> env = image.environment();
        assertThat(env)
                .as(module + ": environment")
                .containsAllEntriesOf(pom.environment())
                .containsKey("JAVA_HOME");
        assertThat(env.get("PATH")).as(module + ": java on the PATH").contains("/usr/bin");

        assertThat(image.labels())
                .as(module + ": labels")
                .containsEntry("org.opencontainers.image.version", version)
                .containsEntry("org.opencontainers.image.title", pom.labels().get("org.opencontainers.image.title"));
    }
}
