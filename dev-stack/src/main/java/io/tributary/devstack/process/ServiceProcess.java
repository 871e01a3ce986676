package io.tributary.devstack.process;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A Tributary service started from its jar as a separate OS process ({@code java -Xmx<heap> -jar <jar>}) with the
 * given environment; output to a log file. Health is read from Spring Boot's {@code /actuator/health} on its
 * management port ({@code MANAGEMENT_PORT}).
 */
public final class ServiceProcess extends ForwardingChildProcess<ManagedProcess> {

    private static final long HEALTH_POLL_MILLIS = 100;
    private static final Pattern STATUS_UP = Pattern.compile("\"status\"\\s*:\\s*\"UP\"");

    private final Path jar;
    private final Path runJar;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private ServiceProcess(Builder builder, Path jar, Path runJar) {
        super(builder.applyTo(ManagedProcess.builder(
                        builder.name, JavaCommand.forJar(runJar, builder.jvmOptions(), List.of())))
                .build());
        this.jar = jar;
        this.runJar = runJar;
    }

    public static Builder builder(String name, Path jar) {
        return new Builder(name, jar);
    }

    /** Starts the process (again, after a stop or kill); does not wait for it to be healthy. */
    public void start() throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("cannot start " + process.name() + ": no jar at " + jar
                    + " (build it with ./mvnw -B -DskipTests package)");
        }
        if (!runJar.equals(jar)) {
            copyJar();
        }
        process.start();
    }

    /** Copies under a temporary name, then renames: the running copy is never a half-written file. */
    private void copyJar() throws IOException {
        Files.createDirectories(runJar.getParent());
        Path partial = runJar.resolveSibling(runJar.getFileName() + ".copying");
        Files.copy(jar, partial, StandardCopyOption.REPLACE_EXISTING);
        Files.move(partial, runJar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Polls {@code http://127.0.0.1:<port>/actuator/health} (the service's management port) until it reports UP. */
    public void awaitHealthy(int managementPort, Duration timeout) throws InterruptedException {
        awaitHealthy(URI.create("http://127.0.0.1:" + managementPort + "/actuator/health"), timeout);
    }

    /**
     * Polls the health URL until it answers 200 with status UP. Fails when the process exits first or the timeout
     * passes; the message carries the tail of the log.
     */
    public void awaitHealthy(URI healthUrl, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastAnswer = "no answer yet";
        HttpRequest request = HttpRequest.newBuilder(healthUrl)
                .timeout(Duration.ofSeconds(2))
                .GET()
                .build();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(process.name() + " exited with code "
                        + process.exitCode().orElse(-1) + " before it was healthy" + process.tailForMessage());
            }
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200
                        && STATUS_UP.matcher(response.body()).find()) {
                    return;
                }
                lastAnswer = "HTTP " + response.statusCode() + " " + response.body();
            } catch (IOException e) {
                lastAnswer = e.toString();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(process.name() + " was not healthy at " + healthUrl + " within "
                        + timeout.toSeconds() + " s (last answer: " + lastAnswer + ")" + process.tailForMessage());
            }
            // Often: a caller waits for every start (the integration tests wait for ~40), and a check costs a
            // refused connection or one health request.
            TimeUnit.MILLISECONDS.sleep(HEALTH_POLL_MILLIS);
        }
    }

    /** SIGTERM, wait up to the grace period, then SIGKILL. */
    public void stop(Duration grace) {
        process.stop(grace);
    }

    public Path jar() {
        return jar;
    }

    /** Settings of a {@link ServiceProcess}; default heap 512m. A log file is required. */
    public static final class Builder extends JvmProcessSettings<Builder> {
        private final String name;
        private final Path jar;
        private Path copyDir;

        private Builder(String name, Path jar) {
            super("512m");
            this.name = name;
            this.jar = jar;
        }

        /**
         * Run a copy of the jar, made in this directory at each start. A Spring Boot jar loads classes from its own
         * file for as long as it runs: rebuilding the original (mvn package) under a running service makes it fail
         * with NoClassDefFoundError.
         */
        public Builder runFromCopyIn(Path directory) {
            this.copyDir = directory;
            return this;
        }

        public ServiceProcess build() {
            Path absoluteJar = jar.toAbsolutePath();
            Path runJar =
                    copyDir == null ? absoluteJar : copyDir.toAbsolutePath().resolve(name + ".jar");
            return new ServiceProcess(this, absoluteJar, runJar);
        }
    }
}
