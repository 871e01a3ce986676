package io.tributary.deploy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md against the definitions (issue 35): every {@code ${ENV_VAR:default}} placeholder in the
 * configuration files transport-service, routing-service and session-service ship (see {@link ShippedVariables})
 * has one row in the table, which names the services that read it and, where it states a literal default, the
 * default of the yml. Each test lists every variable it finds wrong, not only the first.
 *
 * <p>How a row is read ({@link ConfigurationRow}):
 *
 * <ul>
 *   <li><b>Names</b>: the names in backticks in the first column; a row may name several, {@code `A` / `B`}, each
 *       spelt out in full (a shorthand such as {@code `_MAX`} names nothing).
 *   <li><b>Services</b>: the words transport, routing and session of the second column, or "all" for the three;
 *       other words (quickstart, tests) and remarks in parentheses are not services. They must be exactly the
 *       services whose files read the variable.
 *   <li><b>Defaults</b>: the third column, split at " / " outside backticks and parentheses into one part per
 *       name (or a single part for all of them). A part "transport `200ms`, session `5s`" gives each service its
 *       own. A part is compared only when it starts with a literal ({@link DocumentedDefault}): a value in
 *       backticks ({@code `10s`}, {@code `none`}), a number with any unit written against it (1000, 16MB; "5000 ms"
 *       is 5000), or the plain word empty or none, which stand for an empty default. What follows the literal is a
 *       remark and not read ("0 (= 2 x cores)" is 0, "none (required)" is empty). A part that starts with other
 *       words is prose and not compared, nor is a yml default that is itself a placeholder
 *       ({@code ${HOSTNAME:transport-1}}, written `$HOSTNAME`).
 * </ul>
 */
class ConfigurationDocTest {

    private static final String DOC = "docs/configuration.md";

    /**
     * Variables the services read that are not an operator's setting, so have no row of their own. Keep it short;
     * each entry says why.
     */
    private static final Map<String, String> UNDOCUMENTED = Map.of(
            "HOSTNAME",
            "set by the container runtime or the shell, not by an operator; the table gives it as the default of"
                    + " TRIBUTARY_NODE_ID");

    private final Map<String, Map<String, String>> shipped = ShippedVariables.read();
    private final ConfigurationTable table = ConfigurationTable.parse(Repo.read(DOC));

    @Test
    void every_variable_the_services_read_has_a_row() {
        List<String> missing = new ArrayList<>();
        shipped.forEach((variable, defaults) -> {
            if (!UNDOCUMENTED.containsKey(variable)
                    && table.rowsNaming(variable).isEmpty()) {
                missing.add(variable + " (" + describe(defaults) + ")");
            }
        });

        assertThat(missing)
                .withFailMessage(() -> report("has no row naming these variables in backticks", missing))
                .isEmpty();
    }

    @Test
    void each_variable_has_one_row_whose_defaults_line_up_with_its_names() {
        List<String> wrong = new ArrayList<>();
        shipped.keySet().forEach(variable -> {
            List<ConfigurationRow> rows = table.rowsNaming(variable);
            if (rows.size() > 1) {
                wrong.add(variable + ": in the rows of lines "
                        + rows.stream().map(r -> String.valueOf(r.line())).collect(Collectors.joining(", ")));
            } else if (rows.size() == 1 && !rows.get(0).defaultsAligned()) {
                ConfigurationRow row = rows.get(0);
                wrong.add(variable + " (line " + row.line() + "): "
                        + row.variables().size() + " names but "
                        + row.defaults().size() + " defaults separated by ' / '");
            }
        });

        assertThat(wrong)
                .withFailMessage(() -> report("has ambiguous rows", wrong))
                .isEmpty();
    }

    @Test
    void each_row_names_the_services_that_read_its_variables() {
        List<String> wrong = new ArrayList<>();
        shipped.forEach((variable, defaults) -> onlyRow(variable).ifPresent(row -> {
            if (!row.services().equals(defaults.keySet())) {
                wrong.add(variable + " (line " + row.line() + "): the row names " + shortNames(row.services())
                        + ", read by " + shortNames(defaults.keySet()));
            }
        }));

        assertThat(wrong)
                .withFailMessage(() -> report("names the wrong services", wrong))
                .isEmpty();
    }

    @Test
    void documented_defaults_are_the_defaults_of_the_yml() {
        List<String> wrong = new ArrayList<>();
        shipped.forEach((variable, defaults) -> onlyRow(variable)
                .filter(ConfigurationRow::defaultsAligned)
                .ifPresent(row -> defaults.forEach((module, fallback) -> {
                    Optional<String> documented = row.defaultOf(variable).literalFor(module);
                    if (!fallback.contains("${")
                            && documented.isPresent()
                            && !documented.get().equals(fallback)) {
                        wrong.add(variable + " (line " + row.line() + ") in " + module + ": documented `"
                                + documented.get() + "`, the yml has `" + fallback + "`");
                    }
                })));

        assertThat(wrong)
                .withFailMessage(() -> report("states defaults the yml does not have", wrong))
                .isEmpty();
    }

    @Test
    void the_undocumented_list_names_only_variables_that_are_read() {
        assertThat(shipped.keySet()).containsAll(UNDOCUMENTED.keySet());
    }

    private Optional<ConfigurationRow> onlyRow(String variable) {
        List<ConfigurationRow> rows = table.rowsNaming(variable);
        return rows.size() == 1 ? Optional.of(rows.get(0)) : Optional.empty();
    }

    private static String describe(Map<String, String> defaults) {
        return defaults.entrySet().stream()
                .map(e -> e.getKey() + " `" + e.getValue() + "`")
                .collect(Collectors.joining(", "));
    }

    private static String shortNames(Collection<String> modules) {
        return modules.stream()
                .map(m -> m.replace("-service", ""))
                .sorted()
                .collect(Collectors.joining(", ", "[", "]"));
    }

    private static String report(String problem, List<String> lines) {
        return DOC + " " + problem + " (" + lines.size() + "):\n  " + String.join("\n  ", lines);
    }
}
