package io.tributary.devstack.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.devstack.net.Ports;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceProcessTest {

    @TempDir
    Path dir;

    private Path jar;

    /** A real executable jar whose main is {@link FakeHealthService}, found through the manifest Class-Path. */
    @BeforeEach
    void buildJar() throws IOException {
        jar = dir.resolve("fake-service.jar");
        Path classes = Path.of(FakeHealthService.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .getPath());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeHealthService.class.getName());
        manifest.getMainAttributes()
                .put(Attributes.Name.CLASS_PATH, classes.toUri().toString());
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream ignored = new JarOutputStream(out, manifest)) {
            // manifest only
        }
    }

    @Test
    void startsWithItsEnvironmentWaitsUntilHealthyAndStopsWithSigterm() throws Exception {
        int port = Ports.freePort();
        ServiceProcess service = service(port).env("GREETING", "hello").build();
        service.start();
        service.awaitHealthy(port, Duration.ofSeconds(30));

        assertThat(service.isAlive()).isTrue();
        assertThat(service.pid()).isPresent();
        assertThat(Files.readString(service.logFile())).contains("GREETING=hello");

        service.stop();
        assertThat(service.isAlive()).isFalse();
        assertThat(service.exitCode()).hasValue(143);
        assertThat(service.tail(5)).contains("stopping gracefully");
    }

    @Test
    void killEndsTheProcessWithoutItsShutdownHooks() throws Exception {
        int port = Ports.freePort();
        ServiceProcess service = service(port).build();
        service.start();
        service.awaitHealthy(port, Duration.ofSeconds(30));

        service.kill();
        assertThat(service.isAlive()).isFalse();
        assertThat(service.exitCode()).hasValue(137);
        assertThat(Files.readString(service.logFile())).doesNotContain("stopping gracefully");
    }

    @Test
    void awaitHealthyReportsAnEarlyExitWithTheLogTail() throws Exception {
        int port = Ports.freePort();
        ServiceProcess service = service(port).env("FAIL", "true").build();
        service.start();

        assertThatThrownBy(() -> service.awaitHealthy(port, Duration.ofSeconds(30)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("fake exited with code 3")
                .hasMessageContaining("boom: failing on purpose");
    }

    @Test
    void runsFromACopySoThatRebuildingTheOriginalJarDoesNotTouchTheRunningService() throws Exception {
        int port = Ports.freePort();
        Path runDir = dir.resolve("run");
        ServiceProcess service = service(port).runFromCopyIn(runDir).build();
        service.start();
        service.awaitHealthy(port, Duration.ofSeconds(30));

        Path copy = runDir.resolve("fake.jar");
        assertThat(copy).hasSameBinaryContentAs(jar);
        assertThat(ProcessHandle.of(service.pid().orElseThrow())
                        .orElseThrow()
                        .info()
                        .commandLine())
                .hasValueSatisfying(commandLine -> assertThat(commandLine).contains(copy.toString()));
        Files.write(jar, new byte[] {1, 2, 3});
        service.awaitHealthy(port, Duration.ofSeconds(5));
        service.stop();
    }

    @Test
    void aMissingJarIsReportedBeforeAnythingStarts() {
        ServiceProcess service = ServiceProcess.builder("absent", dir.resolve("absent.jar"))
                .logFile(dir.resolve("absent.log"))
                .build();

        assertThatThrownBy(service::start).hasMessageContaining("no jar at " + dir.resolve("absent.jar"));
    }

    private ServiceProcess.Builder service(int port) {
        return ServiceProcess.builder("fake", jar)
                .heap("64m")
                .env("MANAGEMENT_PORT", port)
                .logFile(dir.resolve("fake.log"));
    }
}
