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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A Tributary service started from its jar as a separate OS process ({@code java -Xmx<heap> -jar <jar>}) with the
 * given environment; output to a log file. Health is read from Spring Boot's {@code /actuator/health}.
 */
public final class ServiceProcess implements ChildProcess {

    private static final Pattern STATUS_UP = Pattern.compile("\"status\"\\s*:\\s*\"UP\"");

    private final Path jar;
    private final Path runJar;
    private final ManagedProcess process;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private ServiceProcess(Builder builder) {
        this.jar = builder.jar.toAbsolutePath();
        this.runJar = builder.copyDir == null ? jar : builder.copyDir.toAbsolutePath().resolve(builder.name + ".jar");
        List<String> jvmOptions = new ArrayList<>();
        jvmOptions.add("-Xmx" + builder.heap);
        jvmOptions.addAll(builder.jvmOptions);
        this.process = ManagedProcess.builder(builder.name, JavaCommand.forJar(runJar, jvmOptions, List.of()))
                .environment(builder.environment)
                .logFile(builder.logFile)
                .echo(builder.echo)
                .detached(builder.detached)
                .stopOnJvmExit(builder.stopOnJvmExit)
                .build();
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

    /** Polls {@code http://127.0.0.1:<port>/actuator/health} until it reports UP. */
    public void awaitHealthy(int httpPort, Duration timeout) throws InterruptedException {
        awaitHealthy(URI.create("http://127.0.0.1:" + httpPort + "/actuator/health"), timeout);
    }

    /**
     * Polls the health URL until it answers 200 with status UP. Fails when the process exits first or the timeout
     * passes; the message carries the tail of the log.
     */
    public void awaitHealthy(URI healthUrl, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastAnswer = "no answer yet";
        HttpRequest request = HttpRequest.newBuilder(healthUrl).timeout(Duration.ofSeconds(2)).GET().build();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(process.name() + " exited with code "
                        + process.exitCode().orElse(-1) + " before it was healthy; last lines of "
                        + process.logFile() + ":\n" + process.tail(40));
            }
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && STATUS_UP.matcher(response.body()).find()) {
                    return;
                }
                lastAnswer = "HTTP " + response.statusCode() + " " + response.body();
            } catch (IOException e) {
                lastAnswer = e.toString();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(process.name() + " was not healthy at " + healthUrl + " within "
                        + timeout.toSeconds() + " s (last answer: " + lastAnswer + "); last lines of "
                        + process.logFile() + ":\n" + process.tail(40));
            }
            TimeUnit.MILLISECONDS.sleep(500);
        }
    }

    /** SIGTERM (graceful shutdown), wait up to 20 s, then SIGKILL. */
    @Override
    public void stop() {
        process.stop();
    }

    /** SIGTERM, wait up to the grace period, then SIGKILL. */
    public void stop(Duration grace) {
        process.stop(grace);
    }

    /** SIGKILL without grace, as in a crash. */
    @Override
    public void kill() {
        process.kill();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public OptionalLong pid() {
        return process.pid();
    }

    @Override
    public OptionalLong exitCode() {
        return process.exitCode();
    }

    @Override
    public String name() {
        return process.name();
    }

    public Path jar() {
        return jar;
    }

    @Override
    public Path logFile() {
        return process.logFile();
    }

    /** The last lines of the log, e.g. to print when a test fails. */
    @Override
    public String tail(int lines) {
        return process.tail(lines);
    }

    /** Settings of a {@link ServiceProcess}. */
    public static final class Builder {
        private final String name;
        private final Path jar;
        private final Map<String, String> environment = new LinkedHashMap<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private String heap = "512m";
        private Path logFile;
        private boolean echo;
        private boolean detached;
        private boolean stopOnJvmExit = true;
        private Path copyDir;

        private Builder(String name, Path jar) {
            this.name = name;
            this.jar = jar;
        }

        public Builder env(String name, Object value) {
            environment.put(name, String.valueOf(value));
            return this;
        }

        public Builder environment(Map<String, String> variables) {
            environment.putAll(variables);
            return this;
        }

        /** Maximum heap, as for -Xmx (e.g. "512m"); default 512m. */
        public Builder heap(String heap) {
            this.heap = heap;
            return this;
        }

        public Builder jvmOption(String option) {
            jvmOptions.add(option);
            return this;
        }

        /** Required: stdout and stderr are appended there. */
        public Builder logFile(Path logFile) {
            this.logFile = logFile;
            return this;
        }

        /** Also echo each log line to the console as {@code [name] line}. */
        public Builder echo(boolean echo) {
            this.echo = echo;
            return this;
        }

        /** Run in a session of its own, out of reach of the terminal's Ctrl-C (the launcher stops it). */
        public Builder detached(boolean detached) {
            this.detached = detached;
            return this;
        }

        /** Stop the process when this JVM exits (default true). */
        public Builder stopOnJvmExit(boolean stopOnJvmExit) {
            this.stopOnJvmExit = stopOnJvmExit;
            return this;
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
            return new ServiceProcess(this);
        }
    }
}
