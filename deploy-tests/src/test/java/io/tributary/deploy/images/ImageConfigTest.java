package io.tributary.deploy.images;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.services.ServiceSettings;
import io.tributary.deploy.support.Repo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Jib configuration of the three services (and of the perf-tests runner image): one base, one non-root user,
 * exposed ports and environment that match what the service reads, an entry point that exists. The base is the
 * tar file deploy/images/build-base-image.sh writes (docs/deploy.md); this check does not need it, and
 * {@link BuiltImageTest} checks the image tars themselves when they were built.
 */
class ImageConfigTest {

    private static final String BASE_IMAGE_CACHE_PATH = ".cache/tributary/jre17-base.tar";

    private final ServiceCatalog catalog = ServiceCatalog.load();

    private JibImage image(String module) {
        return JibImage.fromPom(Repo.path(module + "/pom.xml"));
    }

    @Test
    void theServicesShareBaseUserAndPluginVersion() {
        JibImage transport = image("transport-service");
        assertThat(transport.from()).isNotBlank().doesNotEndWith(":latest").contains(":");
        // The base is the tarball the base-image script writes by default (a registry base is a -Djib.from.image away).
        assertThat(transport.from()).isEqualTo("tar://${user.home}/" + BASE_IMAGE_CACHE_PATH);
        assertThat(Repo.read("deploy/images/build-base-image.sh")).contains("$HOME/" + BASE_IMAGE_CACHE_PATH);
        assertThat(Files.isExecutable(Repo.path("deploy/images/build-base-image.sh")))
                .isTrue();
        assertThat(transport.user()).matches("[1-9][0-9]*:[1-9][0-9]*");
        for (String module : List.of("routing-service", "session-service", "deploy-tests")) {
            JibImage other = image(module);
            assertThat(other.from()).as(module).isEqualTo(transport.from());
            assertThat(other.user()).as(module).isEqualTo(transport.user());
            assertThat(other.pluginVersion()).as(module).isEqualTo(transport.pluginVersion());
        }
    }

    @Test
    void eachServiceImageMatchesWhatTheServiceReads() {
        for (ServiceSettings service : catalog.all()) {
            JibImage image = image(service.module());
            String module = service.module();
            assertThat(image.to()).as(module).isEqualTo("tributary/" + module + ":${project.version}");
            assertThat(image.labels())
                    .as(module)
                    .containsEntry("org.opencontainers.image.version", "${project.version}");
            assertThat(image.environment().keySet())
                    .as(module + ": image environment read by the service")
                    .allMatch(service::reads);
            List<Integer> expectedPorts = new ArrayList<>();
            if (service.reads("MQTT_PORT")) {
                expectedPorts.add(Integer.parseInt(service.effective(image.environment(), "MQTT_PORT")));
            }
            expectedPorts.addAll(service.httpPorts(image.environment()));
            assertThat(image.ports()).as(module + ": exposed ports").containsExactlyInAnyOrderElementsOf(expectedPorts);
            assertThat(image.jvmFlags())
                    .as(module)
                    .contains("-XX:+ExitOnOutOfMemoryError")
                    .anyMatch(flag -> flag.startsWith("-XX:MaxRAMPercentage="));
            assertThat(image.tarBoundToPackageInImagesProfile())
                    .as(module + ": -Pimages writes the tar")
                    .isTrue();

            Path mainClass = service.sourceRoot().resolve(image.mainClass().replace('.', '/') + ".java");
            assertThat(mainClass).as(module + ": main class").isRegularFile();
            assertThat(Repo.read(mainClass)).contains("SpringApplication.run");
        }
    }

    @Test
    void thePerfImageHoldsTheRunnerAsLaidOutInTheRepository() {
        JibImage perf = image("deploy-tests");
        assertThat(perf.to()).isEqualTo("tributary/perf-tests:${project.version}");
        assertThat(perf.tarBoundToPackageInImagesProfile()).isTrue();
        assertThat(perf.extraFrom()).isEqualTo("${project.basedir}/../perf-tests");
        assertThat(perf.extraInto()).isEqualTo(perf.workingDirectory() + "/perf-tests");
        assertThat(perf.entrypoint()).containsExactly(perf.extraInto() + "/bin/perf");
        assertThat(perf.extraIncludes())
                .contains("bin/perf", "scenarios/**", "target/tributary-perf-tests-${project.version}.jar");
        assertThat(Repo.path("perf-tests/bin/perf")).isRegularFile();
        assertThat(Files.isExecutable(Repo.path("perf-tests/bin/perf"))).isTrue();
    }
}
