package io.tributary.deploy.compose;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Docker Compose variable interpolation from the .env file: {@code $$}, {@code $NAME}, {@code ${NAME}},
 * {@code ${NAME:-default}}, {@code ${NAME-default}}, {@code ${NAME:?error}}, {@code ${NAME?error}},
 * {@code ${NAME:+alternative}}, {@code ${NAME+alternative}}. A variable used without a value or default is a
 * problem: Compose would put an empty string in its place.
 */
final class Interpolation {

    private final Map<String, String> variables;
    private final Set<String> used = new TreeSet<>();
    private final List<String> problems = new ArrayList<>();

    Interpolation(Map<String, String> variables) {
        this.variables = variables;
    }

    Set<String> used() {
        return used;
    }

    List<String> problems() {
        return problems;
    }

    String apply(String text) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c != '$' || i + 1 == text.length()) {
                out.append(c);
                i++;
            } else if (text.charAt(i + 1) == '$') {
                out.append('$');
                i += 2;
            } else if (text.charAt(i + 1) == '{') {
                int end = text.indexOf('}', i + 2);
                if (end < 0) {
                    problems.add("unterminated ${ in: " + text);
                    return out.append(text.substring(i)).toString();
                }
                out.append(braced(text.substring(i + 2, end), text));
                i = end + 1;
            } else {
                int end = i + 1;
                while (end < text.length()
                        && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
                    end++;
                }
                if (end == i + 1) {
                    out.append(c);
                    i++;
                } else {
                    out.append(value(text.substring(i + 1, end), text));
                    i = end;
                }
            }
        }
        return out.toString();
    }

    private String braced(String body, String context) {
        int operator = 0;
        while (operator < body.length()
                && (Character.isLetterOrDigit(body.charAt(operator)) || body.charAt(operator) == '_')) {
            operator++;
        }
        String name = body.substring(0, operator);
        String rest = body.substring(operator);
        used.add(name);
        String value = variables.get(name);
        boolean set = value != null;
        boolean nonEmpty = set && !value.isEmpty();
        if (rest.isEmpty()) {
            return value(name, context);
        } else if (rest.startsWith(":-")) {
            return nonEmpty ? value : rest.substring(2);
        } else if (rest.startsWith("-")) {
            return set ? value : rest.substring(1);
        } else if (rest.startsWith(":?") || rest.startsWith("?")) {
            boolean ok = rest.startsWith(":?") ? nonEmpty : set;
            if (!ok) {
                problems.add(
                        "${" + name + "} is required (" + rest.substring(rest.indexOf('?') + 1) + ") in: " + context);
            }
            return ok ? value : "";
        } else if (rest.startsWith(":+")) {
            return nonEmpty ? rest.substring(2) : "";
        } else if (rest.startsWith("+")) {
            return set ? rest.substring(1) : "";
        }
        problems.add("unsupported interpolation ${" + body + "} in: " + context);
        return "";
    }

    private String value(String name, String context) {
        used.add(name);
        String value = variables.get(name);
        if (value == null) {
            problems.add("${" + name + "} has no value in .env and no default, in: " + context);
            return "";
        }
        return value;
    }
}
