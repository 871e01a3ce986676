package io.tributary.deploy.docs;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The references to code in a piece of Markdown, in the docs' convention: a module in backticks ({@code
 * `transport-service`}, {@code `common`}; in the subsystem pages also {@code `transport`}, {@code `routing`},
 * {@code `session`}) or a hyphenated module name in plain text right before a code span (session-service {@code
 * `/internal/...`}; not "before session-service: `...`"), followed by code spans naming a path under that module's
 * base package. A module named inside parentheses is the context only up to the closing one: in "`session-queue`
 * `QueueAppender` (`routing-service` `queue/BatchAppends`), `QueueReader`" the last is read in session-queue.
 *
 * <p>A code span is a reference when it matches {@link #REFERENCE}: optional lower-case package segments each ending
 * in "/", then an UpperCamel type name (an upper-case letter followed by a lower-case one, so {@code `QoS`} is one but
 * {@code `UPDATE`} and {@code `TRIBUTARY_NODE_ID`} are not), then optional ".Member" parts: an upper-case member is a
 * nested type, a lower-case one a method. Anything else is not code: HTTP paths ({@code `/internal/v1/...`}), file
 * names ({@code `hold.lua`}, {@code `session-service/openapi.json`}), bare method or header names ({@code `endAll`},
 * {@code `mqtt.qos`}), paths with "..." ({@code `common/.../RecordHeaders`}) and environment variables.
 */
final class CodeReferences {

    static final Pattern REFERENCE = Pattern.compile(
            "(?<path>(?:[a-z][a-zA-Z0-9]*/)*(?<type>[A-Z][a-z][A-Za-z0-9]*))(?<members>(?:\\.[A-Za-z][A-Za-z0-9]*)*)");

    /** Short module names the subsystem pages use in backticks. */
    private static final Map<String, String> ALIASES =
            Map.of("transport", "transport-service", "routing", "routing-service", "session", "session-service");

    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
    /** A hyphenated module name in plain text right before the next code span: "session-service `/internal/...`". */
    private static final Pattern PLAIN_MODULE = Pattern.compile("(?<![\\w/.-])([a-z]+(?:-[a-z]+)+)\\s+$");

    /**
     * One reference: where it stands, the code span, the module named last before it in its cell or paragraph and
     * not inside parentheses closed since ({@code context}, null if none) and the module named right before it with only spaces between ({@code
     * adjacent}, null if none).
     */
    record Reference(int line, String where, String text, String context, String adjacent) {

        Matcher parts() {
            Matcher m = REFERENCE.matcher(text);
            if (!m.matches()) {
                throw new IllegalStateException(text);
            }
            return m;
        }

        /** The path under the base package, without members: "connect/DisconnectService" of "...disconnectAll". */
        String path() {
            return parts().group("path");
        }

        /** The first package segment, or empty for a bare type name. */
        String topPackage() {
            String path = path();
            int slash = path.indexOf('/');
            return slash < 0 ? "" : path.substring(0, slash);
        }

        List<String> members() {
            String members = parts().group("members");
            return members.isEmpty() ? List.of() : List.of(members.substring(1).split("\\.", -1));
        }

        boolean qualified() {
            return text.indexOf('/') >= 0;
        }
    }

    private CodeReferences() {}

    /**
     * The references in {@code text}, which starts on {@code firstLine}; {@code isModule} tells module names from
     * other words.
     */
    static List<Reference> scan(String text, int firstLine, String where, Predicate<String> isModule) {
        List<Reference> references = new ArrayList<>();
        String context = null;
        String adjacent = null;
        Deque<Optional<String>> outer = new ArrayDeque<>();
        int from = 0;
        Matcher span = CODE_SPAN.matcher(text);
        while (span.find()) {
            String plain = text.substring(from, span.start());
            for (int i = 0; i < plain.length(); i++) {
                if (plain.charAt(i) == '(') {
                    outer.push(Optional.ofNullable(context));
                } else if (plain.charAt(i) == ')' && !outer.isEmpty()) {
                    context = outer.pop().orElse(null);
                }
            }
            Matcher word = PLAIN_MODULE.matcher(plain);
            if (word.find() && isModule.test(word.group(1))) {
                context = word.group(1);
                adjacent = word.group(1);
            } else if (!plain.isBlank()) {
                adjacent = null;
            }
            String code = span.group(1);
            String module = ALIASES.getOrDefault(code, code);
            if (isModule.test(module)) {
                context = module;
                adjacent = module;
            } else {
                if (REFERENCE.matcher(code).matches()) {
                    int line = firstLine
                            + (int) text.substring(0, span.start())
                                    .chars()
                                    .filter(c -> c == '\n')
                                    .count();
                    references.add(new Reference(line, where, code, context, adjacent));
                }
                adjacent = null;
            }
            from = span.end();
        }
        return references;
    }
}
