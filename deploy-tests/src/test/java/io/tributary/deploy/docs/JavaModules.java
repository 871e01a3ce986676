package io.tributary.deploy.docs;

import io.tributary.deploy.support.Repo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Java modules of the repository as the tree has them: every top-level directory with a pom.xml and Java sources
 * under src/main/java or src/test/java. A module's base package is read from the tree, not configured: from
 * src/main/java (src/test/java for a module with tests only) down through directories that hold exactly one directory
 * and no file (io/tributary/transport for transport-service, io/tributary/sessionqueue for session-queue).
 */
final class JavaModules {

    private static final List<String> SOURCE_ROOTS = List.of("src/main/java", "src/test/java");

    private final Map<String, Path> basePackages;

    private JavaModules(Map<String, Path> basePackages) {
        this.basePackages = basePackages;
    }

    static JavaModules read() {
        Map<String, Path> bases = new TreeMap<>();
        for (Path module : list(Repo.root())) {
            if (Files.isRegularFile(module.resolve("pom.xml"))) {
                basePackage(module)
                        .ifPresent(base -> bases.put(module.getFileName().toString(), base));
            }
        }
        return new JavaModules(bases);
    }

    Map<String, Path> basePackages() {
        return basePackages;
    }

    boolean isModule(String name) {
        return basePackages.containsKey(name);
    }

    /** The directories directly under the module's base package in src/main/java, by name. */
    List<String> topLevelPackages(String module) {
        Path dir = Repo.root().resolve(module).resolve("src/main/java").resolve(basePackages.get(module));
        return list(dir).stream()
                .filter(Files::isDirectory)
                .map(p -> p.getFileName().toString())
                .sorted()
                .toList();
    }

    /**
     * The source file of {@code relative} (a path under the base package without ".java", e.g. "connect/ConnectHandler")
     * in the module's main sources, else its test sources.
     */
    Optional<Path> sourceFile(String module, String relative) {
        Path root = Repo.root().resolve(module);
        return SOURCE_ROOTS.stream()
                .map(sources ->
                        root.resolve(sources).resolve(basePackages.get(module)).resolve(relative + ".java"))
                .filter(Files::isRegularFile)
                .findFirst();
    }

    /** Every source file named {@code simpleName}.java anywhere in the module, main sources first. */
    List<Path> sourceFilesNamed(String module, String simpleName) {
        Path root = Repo.root().resolve(module);
        List<Path> found = new ArrayList<>();
        for (String sources : SOURCE_ROOTS) {
            Path dir = root.resolve(sources);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.walk(dir)) {
                    files.filter(p -> p.getFileName().toString().equals(simpleName + ".java"))
                            .sorted()
                            .forEach(found::add);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return found;
    }

    /** Whether the source declares a type {@code name} (a class, interface, enum, record or annotation). */
    static boolean declaresType(Path source, String name) {
        return Pattern.compile("\\b(class|interface|enum|record|@interface)\\s+" + Pattern.quote(name) + "\\b")
                .matcher(Repo.read(source))
                .find();
    }

    /** Whether the source declares or calls a method {@code name}: the name followed by an opening parenthesis. */
    static boolean mentionsMethod(Path source, String name) {
        return Pattern.compile("\\b" + Pattern.quote(name) + "\\s*\\(")
                .matcher(Repo.read(source))
                .find();
    }

    private static Optional<Path> basePackage(Path module) {
        for (String sources : SOURCE_ROOTS) {
            Path root = module.resolve(sources);
            if (Files.isDirectory(root)) {
                Path dir = root;
                List<Path> children = list(dir);
                while (children.size() == 1 && Files.isDirectory(children.get(0))) {
                    dir = children.get(0);
                    children = list(dir);
                }
                if (!dir.equals(root)) {
                    return Optional.of(root.relativize(dir));
                }
            }
        }
        return Optional.empty();
    }

    private static List<Path> list(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> children = Files.list(dir)) {
            return children.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
