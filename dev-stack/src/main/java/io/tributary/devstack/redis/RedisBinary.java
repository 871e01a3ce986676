package io.tributary.devstack.redis;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.core.ExecutableProvider;

/**
 * Which redis-server the embedded Redis runs. Docker Compose and the Kubernetes manifests run Redis 7
 * ({@code REDIS_VERSION} in .env, k8s/aws/data-stores/redis.yaml); embedded-redis bundles only 6.2 binaries, and the
 * Redis 7 binaries it can fetch come from a web host, not a package registry. So a Redis 7 {@code redis-server}
 * installed on the machine (Debian's {@code redis-server} package is 7.0) is preferred: {@code REDIS_SERVER_BINARY},
 * else the first one on the PATH. Without one, the bundled 6.2 runs and a warning says so.
 */
final class RedisBinary {

    private static final Logger LOG = LoggerFactory.getLogger(RedisBinary.class);
    /** The major version Compose and Kubernetes run. */
    static final int DEPLOYED_MAJOR = 7;

    static final String OVERRIDE_VARIABLE = "REDIS_SERVER_BINARY";
    private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.(\\d+)\\.(\\d+)");

    private RedisBinary() {}

    static ExecutableProvider choose() {
        String override = System.getenv(OVERRIDE_VARIABLE);
        Path candidate = override != null && !override.isBlank() ? Path.of(override) : onPath("redis-server");
        if (candidate != null) {
            OptionalInt major = majorVersion(candidate);
            if (major.isPresent() && major.getAsInt() == DEPLOYED_MAJOR) {
                File binary = candidate.toFile();
                return () -> binary;
            }
            LOG.warn(
                    "{} is Redis {}, not {} as in Docker Compose and Kubernetes; using embedded-redis's bundled 6.2",
                    candidate,
                    major.isPresent() ? major.getAsInt() : "of unknown version",
                    DEPLOYED_MAJOR);
        } else {
            LOG.warn(
                    "No redis-server {} found ({} unset, none on the PATH): using embedded-redis's bundled 6.2, one"
                            + " major version behind Docker Compose and Kubernetes",
                    DEPLOYED_MAJOR,
                    OVERRIDE_VARIABLE);
        }
        return ExecutableProvider.newJarResourceProvider();
    }

    static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path file = Path.of(dir, name);
            if (Files.isRegularFile(file) && Files.isExecutable(file)) {
                return file;
            }
        }
        return null;
    }

    /** Runs {@code binary --version} ("Redis server v=7.0.15 sha=..."). */
    static OptionalInt majorVersion(Path binary) {
        try {
            Process process = new ProcessBuilder(binary.toString(), "--version")
                    .redirectErrorStream(true)
                    .start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return OptionalInt.empty();
            }
            Matcher m = VERSION.matcher(new String(output, StandardCharsets.UTF_8));
            return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
        } catch (IOException e) {
            return OptionalInt.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalInt.empty();
        }
    }
}
