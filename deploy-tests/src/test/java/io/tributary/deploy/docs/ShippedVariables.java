package io.tributary.deploy.docs;

import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.support.Repo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The environment variables the three services read from the configuration files they ship: each module's
 * src/main/resources/application.yml and any application-&lt;profile&gt;.yml (or .yaml) beside it. Test resources
 * are not shipped and not read.
 */
final class ShippedVariables {

    private static final Pattern FILE = Pattern.compile("application(-[A-Za-z0-9_.-]+)?\\.ya?ml");

    private ShippedVariables() {}

    /**
     * variable to (module to default), variables sorted; where files of one module disagree, application.yml's
     * default is kept, as the one that applies without a profile.
     */
    static Map<String, Map<String, String>> read() {
        Map<String, Map<String, String>> variables = new TreeMap<>();
        for (String module : ServiceCatalog.MODULES) {
            for (Path file : files(module)) {
                ServiceCatalog.variablesIn(Repo.read(file))
                        .forEach((name, fallback) -> variables
                                .computeIfAbsent(name, n -> new LinkedHashMap<>())
                                .putIfAbsent(module, fallback));
            }
        }
        return variables;
    }

    /** The module's configuration files, application.yml first. */
    static List<Path> files(String module) {
        Path resources = Repo.path(module).resolve("src/main/resources");
        Path main = resources.resolve("application.yml");
        if (!Files.isRegularFile(main)) {
            throw new IllegalStateException(main + " is missing");
        }
        List<Path> files = new ArrayList<>(List.of(main));
        try (Stream<Path> listing = Files.list(resources)) {
            listing.filter(p -> FILE.matcher(p.getFileName().toString()).matches())
                    .filter(p -> !p.equals(main))
                    .sorted(Comparator.comparing(Path::toString))
                    .forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
