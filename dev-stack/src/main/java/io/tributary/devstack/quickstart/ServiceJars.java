package io.tributary.devstack.quickstart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Finds a service's executable jar: {@code <home>/<module>/target/tributary-<module>-<version>.jar}. */
final class ServiceJars {

    private ServiceJars() {}

    /** The newest jar without classifier (not -plain, -sources, ...), if the module has been built. */
    static Optional<Path> find(Path home, String module) {
        Path target = home.resolve(module).resolve("target");
        if (!Files.isDirectory(target)) {
            return Optional.empty();
        }
        Pattern name = Pattern.compile("tributary-" + Pattern.quote(module) + "-\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\.jar");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(
                            file -> name.matcher(file.getFileName().toString()).matches())
                    .max(Comparator.comparing(ServiceJars::lastModified));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Where the jar is expected, for messages. */
    static Path expected(Path home, String module) {
        return home.resolve(module).resolve("target").resolve("tributary-" + module + "-<version>.jar");
    }

    private static long lastModified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }
}
