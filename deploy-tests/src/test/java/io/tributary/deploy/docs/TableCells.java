package io.tributary.deploy.docs;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a cell of a Markdown table at a separator that stands outside code spans and parentheses, so that
 * {@code `a / b`} and "(`admin` / `tributary-dev` in `bin/quickstart`)" stay whole.
 */
final class TableCells {

    private TableCells() {}

    static List<String> split(String text, String separator) {
        List<String> parts = new ArrayList<>();
        boolean inCode = false;
        int depth = 0;
        int from = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '`') {
                inCode = !inCode;
            } else if (!inCode && c == '(') {
                depth++;
            } else if (!inCode && c == ')' && depth > 0) {
                depth--;
            } else if (!inCode && depth == 0 && text.startsWith(separator, i)) {
                parts.add(text.substring(from, i).trim());
                from = i + separator.length();
                i = from - 1;
            }
        }
        parts.add(text.substring(from).trim());
        return parts;
    }
}
