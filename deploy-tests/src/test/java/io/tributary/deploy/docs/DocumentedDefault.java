package io.tributary.deploy.docs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one variable's part of a default cell of docs/configuration.md states, by the rule {@link
 * ConfigurationDocTest} documents: a literal at its start, or nothing comparable (prose). A part of the form
 * "transport `200ms`, session `5s`" states one default per service.
 */
final class DocumentedDefault {

    private static final Map<String, String> SERVICE_WORDS =
            Map.of("transport", "transport-service", "routing", "routing-service", "session", "session-service");
    private static final Pattern CODE = Pattern.compile("^`([^`]*)`");
    // A number and the unit written against it (16MB); a unit after a space ("5000 ms") is a remark.
    private static final Pattern NUMBER = Pattern.compile("^[0-9][0-9A-Za-z.]*");
    // "empty" and "none" in plain text mean an empty default; `none` in backticks is the literal value.
    private static final Pattern EMPTY = Pattern.compile("^(empty|none)\\b");

    /** module to literal; the key {@code null} holds the literal for every service. */
    private final Map<String, String> literals;

    private DocumentedDefault(Map<String, String> literals) {
        this.literals = literals;
    }

    static DocumentedDefault parse(String part) {
        Map<String, String> perService = perService(part);
        if (perService != null) {
            return new DocumentedDefault(perService);
        }
        Map<String, String> forAll = new LinkedHashMap<>();
        literal(part).ifPresent(value -> forAll.put(null, value));
        return new DocumentedDefault(forAll);
    }

    /** The default the doc states for this service, if it states a literal one. */
    Optional<String> literalFor(String module) {
        return Optional.ofNullable(literals.containsKey(null) ? literals.get(null) : literals.get(module));
    }

    /** "session 8080, transport 8081": each item names a service, else this is not the per-service form (null). */
    private static Map<String, String> perService(String part) {
        Map<String, String> found = new LinkedHashMap<>();
        for (String item : TableCells.split(part, ",")) {
            int space = item.indexOf(' ');
            String module = space < 0 ? null : SERVICE_WORDS.get(item.substring(0, space));
            if (module == null) {
                return null;
            }
            literal(item.substring(space + 1)).ifPresent(value -> found.put(module, value));
        }
        return found;
    }

    static Optional<String> literal(String text) {
        String trimmed = text.trim();
        Matcher code = CODE.matcher(trimmed);
        if (code.find()) {
            return Optional.of(code.group(1));
        }
        Matcher number = NUMBER.matcher(trimmed);
        if (number.find()) {
            return Optional.of(number.group());
        }
        return EMPTY.matcher(trimmed).find() ? Optional.of("") : Optional.empty();
    }
}
