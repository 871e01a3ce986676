package io.tributary.deploy.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The repository the checks read, and the build facts Maven hands them (deploy-tests/pom.xml, surefire). */
public final class Repo {

    private Repo() {}

    /** The repository root: {@code tributary.root} when run by Maven, else the parent of the working directory. */
    public static Path root() {
        String configured = System.getProperty("tributary.root");
        Path root = configured != null ? Path.of(configured) : Path.of("..");
        root = root.toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("pom.xml")) || !Files.isDirectory(root.resolve("deploy-tests"))) {
            throw new IllegalStateException(root + " is not the Tributary repository root");
        }
        return root;
    }

    public static Path path(String relative) {
        return root().resolve(relative);
    }

    public static String read(String relative) {
        return read(path(relative));
    }

    public static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The Maven project version (TRIBUTARY_VERSION, image tags). */
    public static String projectVersion() {
        return required("tributary.version");
    }

    /** The Kafka version of the build: clients and the embedded test broker. */
    public static String kafkaVersion() {
        return required("tributary.kafka.version");
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank() || value.startsWith("${")) {
            throw new IllegalStateException("system property " + property + " is not set: run the checks with Maven");
        }
        return value;
    }
}
