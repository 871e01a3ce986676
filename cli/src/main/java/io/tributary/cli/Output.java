package io.tributary.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How an answer is printed. {@code --json}: the body as the server wrote it. Else tab-separated: a page's
 * {@code items} or a list as a header row of the keys met (in the server's order) and one row each; one object as
 * key/value lines, nested objects as {@code outer.inner} keys.
 */
final class Output {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Output() {}

    static void print(PrintWriter out, @Nullable String body, boolean json) {
        if (json || body == null || body.isBlank()) {
            out.println(body == null ? "" : body);
            return;
        }
        JsonNode value;
        try {
            value = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new CliException(ExitCodes.REFUSED, "the server's answer is not JSON: " + e.getOriginalMessage());
        }
        if (value.isObject() && value.path("items").isArray()) {
            value = value.get("items");
        }
        if (value.isArray()) {
            out.print(table(value));
        } else if (value.isObject()) {
            StringBuilder lines = new StringBuilder();
            fields("", value, lines);
            out.print(lines);
        } else {
            out.println(cell(value));
        }
    }

    /** A header row of every key met, in order, then one row per element. */
    static String table(JsonNode list) {
        Set<String> columns = new LinkedHashSet<>();
        for (JsonNode row : list) {
            row.fieldNames().forEachRemaining(columns::add);
        }
        StringBuilder out = new StringBuilder(String.join("\t", columns)).append('\n');
        for (JsonNode row : list) {
            List<String> cells = new ArrayList<>();
            for (String column : columns) {
                cells.add(cell(row.isObject() ? row.get(column) : column.equals("value") ? row : null));
            }
            out.append(String.join("\t", cells)).append('\n');
        }
        return out.toString();
    }

    private static void fields(String prefix, JsonNode object, StringBuilder out) {
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getValue().isObject()) {
                fields(prefix + field.getKey() + ".", field.getValue(), out);
            } else {
                out.append(prefix)
                        .append(field.getKey())
                        .append('\t')
                        .append(cell(field.getValue()))
                        .append('\n');
            }
        }
    }

    /**
     * One cell: a scalar as it is (tabs and newlines in text as spaces, whole numbers without a fraction), a list of
     * scalars joined by spaces, anything else as compact JSON without its null fields.
     */
    static String cell(@Nullable JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return "";
        }
        if (value.isArray() && allScalars(value)) {
            List<String> parts = new ArrayList<>();
            value.forEach(element -> parts.add(cell(element)));
            return String.join(" ", parts);
        }
        if (value.isContainerNode()) {
            return withoutNulls(value).toString();
        }
        if (value.isFloatingPointNumber()) {
            double d = value.doubleValue();
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
        }
        return value.asText().replace('\t', ' ').replace('\n', ' ');
    }

    private static boolean allScalars(JsonNode list) {
        for (JsonNode element : list) {
            if (element.isContainerNode()) {
                return false;
            }
        }
        return true;
    }

    private static JsonNode withoutNulls(JsonNode value) {
        JsonNode copy = value.deepCopy();
        strip(copy);
        return copy;
    }

    private static void strip(JsonNode node) {
        if (node instanceof ObjectNode object) {
            List<String> nulls = new ArrayList<>();
            object.fields().forEachRemaining(f -> {
                if (f.getValue().isNull()) {
                    nulls.add(f.getKey());
                }
            });
            object.remove(nulls);
        }
        node.forEach(Output::strip);
    }
}
