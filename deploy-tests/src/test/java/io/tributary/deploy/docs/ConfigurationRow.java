package io.tributary.deploy.docs;

import io.tributary.deploy.services.ServiceCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One row of the table in docs/configuration.md: {@code | `A` / `B` | services | default A / default B | meaning |}.
 *
 * @param line the row's line number in the file (1-based), for messages
 * @param variables the names in backticks in the first column
 * @param services the modules the second column names ("all" = the three; quickstart, tests and remarks in
 *     parentheses are not services)
 * @param defaults the third column split at " / ": one part per variable, or one part for all of them
 */
record ConfigurationRow(int line, List<String> variables, Set<String> services, List<DocumentedDefault> defaults) {

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /** The row a table line holds, or null for any other line (text, header, the |---| line). */
    static ConfigurationRow parse(int line, String text) {
        if (!text.startsWith("| `")) {
            return null;
        }
        // GitHub's Markdown ends a cell at every pipe that is not escaped, in code spans too.
        String[] cells = text.substring(1).split("(?<!\\\\)\\|");
        if (cells.length < 4) {
            throw new IllegalArgumentException("docs/configuration.md line " + line + " has fewer than 4 cells");
        }
        List<String> variables = new ArrayList<>();
        Matcher name = CODE.matcher(cells[0]);
        while (name.find()) {
            variables.add(name.group(1));
        }
        List<DocumentedDefault> defaults = TableCells.split(cells[2].trim(), " / ").stream()
                .map(DocumentedDefault::parse)
                .toList();
        return new ConfigurationRow(line, List.copyOf(variables), services(cells[1]), defaults);
    }

    private static Set<String> services(String cell) {
        Set<String> services = new TreeSet<>();
        for (String word : cell.replaceAll("\\([^)]*\\)", "").split(",")) {
            String service = word.trim().toLowerCase(Locale.ROOT);
            if (service.equals("all")) {
                services.addAll(ServiceCatalog.MODULES);
            } else if (ServiceCatalog.MODULES.contains(service + "-service")) {
                services.add(service + "-service");
            }
        }
        return services;
    }

    /** Whether the default cell has one part for all variables or one for each. */
    boolean defaultsAligned() {
        return defaults.size() == 1 || defaults.size() == variables.size();
    }

    /** The documented default of one of the row's variables (the row's defaults must be aligned). */
    DocumentedDefault defaultOf(String variable) {
        return defaults.size() == 1 ? defaults.get(0) : defaults.get(variables.indexOf(variable));
    }
}
