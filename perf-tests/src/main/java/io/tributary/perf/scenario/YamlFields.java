package io.tributary.perf.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Typed reads from one YAML mapping that record problems (with their path, e.g. {@code publishers[0].qos}) instead
 * of failing on the first, and reject unknown keys so a typo is an error rather than a silently ignored setting.
 */
final class YamlFields {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)?");

    private final String path;
    private final Map<String, Object> values;
    private final List<String> problems;

    private YamlFields(String path, Map<String, Object> values, List<String> problems) {
        this.path = path;
        this.values = values;
        this.problems = problems;
    }

    static YamlFields of(String path, Object node, List<String> problems) {
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), v));
            return new YamlFields(path, copy, problems);
        }
        problems.add(
                (path.isEmpty() ? "the file" : path) + ": expected a mapping (key: value), found " + describe(node));
        return new YamlFields(path, Map.of(), problems);
    }

    void rejectUnknown(Set<String> known) {
        for (String key : values.keySet()) {
            if (!known.contains(key)) {
                problems.add(at(key) + ": unknown key (known: " + String.join(", ", new TreeSet<>(known)) + ")");
            }
        }
    }

    int problemsSoFar() {
        return problems.size();
    }

    boolean has(String key) {
        return values.get(key) != null;
    }

    Object raw(String key) {
        return values.get(key);
    }

    String at(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    void problem(String key, String message) {
        problems.add(at(key) + ": " + message);
    }

    String string(String key, String fallback) {
        Object value = values.get(key);
        if (value == null) {
            return fallback;
        }
        if (value instanceof Map || value instanceof List) {
            problem(key, "expected a text, found " + describe(value));
            return fallback;
        }
        return String.valueOf(value);
    }

    long integer(String key, long fallback, long min, long max) {
        Object value = values.get(key);
        if (value == null) {
            return fallback;
        }
        long parsed;
        if (value instanceof Number number && !(value instanceof Double || value instanceof Float)) {
            parsed = number.longValue();
        } else {
            try {
                parsed = Long.parseLong(String.valueOf(value).trim().replace("_", ""));
            } catch (NumberFormatException e) {
                problem(key, "expected a whole number, found '" + value + "'");
                return fallback;
            }
        }
        if (parsed < min || parsed > max) {
            problem(key, parsed + " is outside " + min + ".." + max);
            return fallback;
        }
        return parsed;
    }

    double decimal(String key, double fallback, double minExclusive, double max) {
        Object value = values.get(key);
        if (value == null) {
            return fallback;
        }
        double parsed;
        try {
            parsed = value instanceof Number number
                    ? number.doubleValue()
                    : Double.parseDouble(String.valueOf(value).trim().replace("_", ""));
        } catch (NumberFormatException e) {
            problem(key, "expected a number, found '" + value + "'");
            return fallback;
        }
        if (!(parsed > minExclusive) || parsed > max) {
            problem(key, parsed + " must be > " + minExclusive + " and <= " + max);
            return fallback;
        }
        return parsed;
    }

    boolean bool(String key, boolean fallback) {
        Object value = values.get(key);
        if (value == null) {
            return fallback;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        problem(key, "expected true or false, found '" + value + "'");
        return fallback;
    }

    /** A duration: a number of seconds, or a number with a unit: 500ms, 30s, 5m, 24h, 1d. */
    Duration duration(String key, Duration fallback, Duration max) {
        Object value = values.get(key);
        if (value == null) {
            return fallback;
        }
        Duration parsed = parseDuration(String.valueOf(value));
        if (parsed == null) {
            problem(key, "expected a duration like 30s, 500ms, 5m, 24h, found '" + value + "'");
            return fallback;
        }
        if (parsed.compareTo(max) > 0) {
            problem(key, value + " is longer than the maximum " + max);
            return fallback;
        }
        return parsed;
    }

    static Duration parseDuration(String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        double amount = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double millis = switch (unit) {
            case "ms" -> amount;
            case "s" -> amount * 1_000;
            case "m" -> amount * 60_000;
            case "h" -> amount * 3_600_000;
            default -> amount * 86_400_000;
        };
        return Duration.ofMillis(Math.round(millis));
    }

    <T> List<T> list(String key, Function<String, T> parser) {
        Object value = values.get(key);
        List<T> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        List<?> items = value instanceof List<?> l ? l : List.of(value);
        for (int i = 0; i < items.size(); i++) {
            try {
                out.add(parser.apply(String.valueOf(items.get(i))));
            } catch (IllegalArgumentException e) {
                problems.add(at(key) + "[" + i + "]: " + e.getMessage());
            }
        }
        return out;
    }

    List<?> nodes(String key) {
        Object value = values.get(key);
        if (value == null) {
            return List.of();
        }
        if (value instanceof List<?> l) {
            return l;
        }
        problem(key, "expected a list (- item), found " + describe(value));
        return List.of();
    }

    static String describe(Object node) {
        if (node == null) {
            return "nothing";
        }
        if (node instanceof List) {
            return "a list";
        }
        if (node instanceof Map) {
            return "a mapping";
        }
        return "'" + node + "'";
    }
}
