package io.tributary.it.ops;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges, grouping clauses,
 * Grafana variables, numbers and durations are taken out, minus functions, aggregations and keywords. Enough for
 * the expressions of a dashboard, not a full PromQL parser.
 */
final class PromQlNames {

    private static final Pattern STRINGS = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGES = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING =
            Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern VARIABLES = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");
    private static final Set<String> KEYWORDS = Set.of(
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "and",
            "or",
            "unless",
            "offset",
            "atan2",
            "inf",
            "nan",
            "Inf",
            "NaN");

    private PromQlNames() {}

    static Set<String> of(String expr) {
        String rest = STRINGS.matcher(expr).replaceAll(" ");
        rest = MATCHERS.matcher(rest).replaceAll(" ");
        rest = RANGES.matcher(rest).replaceAll(" ");
        rest = GROUPING.matcher(rest).replaceAll(" ");
        rest = VARIABLES.matcher(rest).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(rest);
        while (m.find()) {
            boolean call = m.group(2) != null;
            if (!call && !KEYWORDS.contains(m.group(1))) {
                names.add(m.group(1));
            }
        }
        return names;
    }
}
