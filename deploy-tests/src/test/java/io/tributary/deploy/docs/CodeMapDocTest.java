package io.tributary.deploy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.docs.CodeReferences.Reference;
import io.tributary.deploy.support.Repo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The code map of docs/architecture.md (the table "Where to look in the code") and the code named in the subsystem
 * pages docs/architecture/*.md against the tree (issue 35). Each test lists every reference it finds wrong.
 *
 * <p>What is a reference and which module it is read in ({@link CodeReferences}):
 *
 * <ul>
 *   <li>A code span matching {@link CodeReferences#REFERENCE}: {@code `pkg/sub/Type`}, {@code `Type`}, with
 *       optional {@code .Nested} or {@code .method}. HTTP paths, file names, bare lower-case words, environment
 *       variables and the like are not code and not read.
 *   <li>In the table, each reference of the class column is read in the module named last before it in that cell:
 *       a module in backticks ({@code `transport-service`}, {@code `common`}, {@code `session-queue`}) or a
 *       hyphenated module name in plain text right before a code span (session-service {@code `/internal/...`}),
 *       a module named inside parentheses only up to the closing one. A reference with no module before it is
 *       wrong.
 *   <li>In the subsystem pages, only references with a package ({@code `pkg/Type`}) are read, since the prose
 *       names many library types, SQL and protocol words in UpperCamel. One with a module right before it
 *       ({@code `transport` `liveness/NodeHeartbeat`}) is read in that module, any other must exist in some module.
 *   <li>A reference resolves when {@code <module>/src/main/java/<base package>/<path>.java} exists (else the same
 *       under src/test/java: the table names some tests), the base package read from the tree ({@link
 *       JavaModules}). A bare {@code Type} may be in any package of its module (it is named next to its package's
 *       classes), the root package first. Then {@code .Nested} must be declared in that file and {@code .method}
 *       be followed by "(" somewhere in it.
 * </ul>
 *
 * <p>The other way round, every package directly under the base package of transport-service, routing-service and
 * session-service must be the package of at least one reference of the table read in that module, so a new feature
 * package is not left out of the map.
 */
class CodeMapDocTest {

    private static final String DOC = "docs/architecture.md";
    private static final String PAGES = "docs/architecture";
    private static final String TABLE_HEADER = "| step | class |";
    private static final List<String> MAPPED_SERVICES =
            List.of("transport-service", "routing-service", "session-service");

    /** Types the table names that are not Tributary's own; each entry says whose they are. */
    private static final Map<String, String> LIBRARY_TYPES = Map.of(
            "MqttDecoder", "Netty's MQTT decoder (io.netty.handler.codec.mqtt)",
            "MqttReasonCodes", "Netty's MQTT 5 reason codes (io.netty.handler.codec.mqtt)");

    private final JavaModules modules = JavaModules.read();

    @Test
    void base_packages_are_read_from_the_tree() {
        assertThat(modules.basePackages())
                .containsEntry("transport-service", Path.of("io/tributary/transport"))
                .containsEntry("session-queue", Path.of("io/tributary/sessionqueue"))
                .containsEntry("integration-tests", Path.of("io/tributary/it"));
    }

    @Test
    void every_reference_of_the_code_map_names_existing_code() {
        List<Reference> references = tableReferences();
        assertThat(references).hasSizeGreaterThan(50);

        List<String> wrong = new ArrayList<>();
        for (Reference reference : references) {
            if (LIBRARY_TYPES.containsKey(reference.parts().group("type")) && !reference.qualified()) {
                continue;
            }
            if (reference.context() == null) {
                wrong.add(describe(reference) + ": no module named before it in the cell");
            } else {
                problem(reference, reference.context()).ifPresent(p -> wrong.add(describe(reference) + ": " + p));
            }
        }

        assertThat(wrong)
                .withFailMessage(() -> report(DOC + "'s code map names code the tree does not have", wrong))
                .isEmpty();
    }

    @Test
    void every_feature_package_of_the_services_is_in_the_code_map() {
        List<Reference> references = tableReferences();
        List<String> missing = new ArrayList<>();
        for (String service : MAPPED_SERVICES) {
            for (String pkg : modules.topLevelPackages(service)) {
                boolean named =
                        references.stream().anyMatch(r -> service.equals(r.context()) && pkg.equals(r.topPackage()));
                if (!named) {
                    missing.add(service + " " + pkg + "/");
                }
            }
        }

        assertThat(missing)
                .withFailMessage(() -> report(
                        DOC + "'s code map names no class of these packages (add a row or a reference)", missing))
                .isEmpty();
    }

    @Test
    void every_package_qualified_reference_of_the_subsystem_pages_names_existing_code() {
        List<String> wrong = new ArrayList<>();
        for (Path page : pages()) {
            String name = Repo.root().relativize(page).toString();
            for (Reference reference : pageReferences(name)) {
                if (reference.adjacent() != null) {
                    problem(reference, reference.adjacent()).ifPresent(p -> wrong.add(describe(reference) + ": " + p));
                } else if (modules.basePackages().keySet().stream()
                        .allMatch(m -> problem(reference, m).isPresent())) {
                    wrong.add(describe(reference) + ": in no module");
                }
            }
        }

        assertThat(wrong)
                .withFailMessage(() -> report("the subsystem pages name code the tree does not have", wrong))
                .isEmpty();
    }

    /** Why {@code reference} does not resolve in {@code module}, or empty when it does. */
    private Optional<String> problem(Reference reference, String module) {
        String path = reference.path();
        Optional<Path> file = modules.sourceFile(module, path);
        if (file.isEmpty() && !reference.qualified()) {
            file = modules.sourceFilesNamed(module, path).stream().findFirst();
        }
        if (file.isEmpty()) {
            return Optional.of("no " + path + ".java in " + module + " (" + module + "/src/{main,test}/java/"
                    + modules.basePackages().get(module) + "/)");
        }
        for (String member : reference.members()) {
            if (Character.isUpperCase(member.charAt(0))) {
                if (!JavaModules.declaresType(file.get(), member)) {
                    return Optional.of(
                            "no nested type " + member + " in " + Repo.root().relativize(file.get()));
                }
            } else if (!JavaModules.mentionsMethod(file.get(), member)) {
                return Optional.of("no method " + member + " in " + Repo.root().relativize(file.get()));
            }
        }
        return Optional.empty();
    }

    /** The references of the class column of the table, each with the step of its row. */
    private List<Reference> tableReferences() {
        String[] lines = Repo.read(DOC).split("\n", -1);
        int header = -1;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].trim().equals(TABLE_HEADER)) {
                header = i;
                break;
            }
        }
        assertThat(header).as(DOC + " has the table " + TABLE_HEADER).isNotNegative();

        List<Reference> references = new ArrayList<>();
        for (int i = header + 2; i < lines.length && lines[i].startsWith("|"); i++) {
            String row = lines[i].trim();
            List<String> cells = TableCells.split(row.substring(1, row.length() - 1), "|");
            assertThat(cells).as("line %d of %s has two cells", i + 1, DOC).hasSize(2);
            references.addAll(
                    CodeReferences.scan(cells.get(1), i + 1, "row \"" + cells.get(0) + "\"", modules::isModule));
        }
        return references;
    }

    /** The package-qualified references of one page, read paragraph by paragraph, fenced code left out. */
    private List<Reference> pageReferences(String page) {
        String[] lines = Repo.read(page).split("\n", -1);
        List<Reference> references = new ArrayList<>();
        StringBuilder paragraph = new StringBuilder();
        int start = 1;
        boolean fenced = false;
        for (int i = 0; i <= lines.length; i++) {
            String line = i < lines.length ? lines[i] : "";
            boolean fence = line.trim().startsWith("```");
            if (fence) {
                fenced = !fenced;
            }
            if (fence || fenced || line.isBlank()) {
                references.addAll(CodeReferences.scan(paragraph.toString(), start, page, modules::isModule).stream()
                        .filter(Reference::qualified)
                        .toList());
                paragraph.setLength(0);
                start = i + 2;
            } else {
                paragraph.append(line).append('\n');
            }
        }
        return references;
    }

    private static List<Path> pages() {
        try (Stream<Path> files = Files.list(Repo.path(PAGES))) {
            return files.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String describe(Reference reference) {
        return "line " + reference.line() + " (" + reference.where() + "): `" + reference.text() + "`";
    }

    private static String report(String problem, List<String> lines) {
        return problem + " (" + lines.size() + "):\n  " + String.join("\n  ", lines);
    }
}
