package io.tributary.deploy.services;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment placeholders of a Spring configuration value: {@code ${NAME:default}}, defaults may themselves
 * hold placeholders ({@code ${TRIBUTARY_NODE_ID:${HOSTNAME:transport-1}}}), and so may the name of a property
 * reference ({@code ${tributary.log-format.${LOG_FORMAT:text}:}}, which reads {@code LOG_FORMAT}).
 */
public final class Placeholders {

    private Placeholders() {}

    /** Every placeholder name in the text, in order, with its raw default ("" when none). */
    public static Map<String, String> in(String text) {
        Map<String, String> found = new LinkedHashMap<>();
        collect(text, found);
        return found;
    }

    private static void collect(String text, Map<String, String> found) {
        int start = text.indexOf("${");
        while (start >= 0) {
            int end = matchingBrace(text, start + 2);
            String body = text.substring(start + 2, end);
            // Spring splits name and default at the first colon outside nested placeholders.
            int colon = topLevelColon(body);
            String name = colon < 0 ? body : body.substring(0, colon);
            String fallback = colon < 0 ? "" : body.substring(colon + 1);
            // Spring property references (lower case, dotted) are not environment variables.
            if (name.matches("[A-Z][A-Z0-9_]*")) {
                found.putIfAbsent(name, fallback);
            }
            collect(name, found);
            collect(fallback, found);
            start = text.indexOf("${", end + 1);
        }
    }

    private static int topLevelColon(String body) {
        int depth = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '$' && i + 1 < body.length() && body.charAt(i + 1) == '{') {
                depth++;
                i++;
            } else if (c == '}') {
                depth--;
            } else if (c == ':' && depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static int matchingBrace(String text, int from) {
        int depth = 1;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced placeholder in: " + text);
    }
}
