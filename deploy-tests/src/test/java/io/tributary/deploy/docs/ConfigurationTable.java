package io.tributary.deploy.docs;

import java.util.ArrayList;
import java.util.List;

/** The rows of the table of environment variables in docs/configuration.md. */
final class ConfigurationTable {

    private final List<ConfigurationRow> rows;

    private ConfigurationTable(List<ConfigurationRow> rows) {
        this.rows = rows;
    }

    static ConfigurationTable parse(String markdown) {
        List<ConfigurationRow> rows = new ArrayList<>();
        String[] lines = markdown.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            ConfigurationRow row = ConfigurationRow.parse(i + 1, lines[i]);
            if (row != null) {
                rows.add(row);
            }
        }
        return new ConfigurationTable(List.copyOf(rows));
    }

    List<ConfigurationRow> rows() {
        return rows;
    }

    List<ConfigurationRow> rowsNaming(String variable) {
        return rows.stream().filter(row -> row.variables().contains(variable)).toList();
    }
}
