package io.tributary.perf.scenario;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A client id, topic or filter pattern with placeholders: {@code {group}}, {@code {run}} and integer expressions over
 * {@code n} (index in the group), {@code i} (global index across the groups of one side) and {@code k} (topic slot of
 * a publisher), e.g. {@code t-{n*9+k}} or {@code city-{n%10}}. Parsed once; rendering is allocation-light because
 * it runs once per connection and per publisher topic.
 */
public final class TextTemplate {

    /** Integer variables an expression may use. */
    public enum Variable {
        N,
        I,
        K
    }

    /** The values one rendering substitutes. */
    public record Values(long n, long i, long k, String group, String run) {}

    private interface Part {
        void append(StringBuilder out, Values values);
    }

    private final String source;
    private final List<Part> parts;
    private final Set<Variable> variables;

    private TextTemplate(String source, List<Part> parts, Set<Variable> variables) {
        this.source = source;
        this.parts = parts;
        this.variables = variables;
    }

    /**
     * Parses a template.
     *
     * @throws IllegalArgumentException with the position and the reason, for unbalanced braces, unknown placeholders
     *                                  or malformed expressions
     */
    public static TextTemplate parse(String source) {
        if (source == null || source.isEmpty()) {
            throw new IllegalArgumentException("is empty");
        }
        List<Part> parts = new ArrayList<>();
        Set<Variable> used = EnumSet.noneOf(Variable.class);
        int pos = 0;
        while (pos < source.length()) {
            int open = source.indexOf('{', pos);
            int strayClose = source.indexOf('}', pos);
            if (strayClose >= 0 && (open < 0 || strayClose < open)) {
                throw new IllegalArgumentException("'" + source + "': '}' at " + strayClose + " has no '{'");
            }
            if (open < 0) {
                parts.add(literal(source.substring(pos)));
                break;
            }
            if (open > pos) {
                parts.add(literal(source.substring(pos, open)));
            }
            int close = source.indexOf('}', open);
            if (close < 0) {
                throw new IllegalArgumentException("'" + source + "': '{' at " + open + " is never closed");
            }
            String inner = source.substring(open + 1, close).trim();
            switch (inner) {
                case "group" -> parts.add((out, v) -> out.append(v.group()));
                case "run" -> parts.add((out, v) -> out.append(v.run()));
                default -> {
                    Expression expression = new ExpressionParser(source, inner, used).parse();
                    parts.add((out, v) -> out.append(expression.evaluate(v)));
                }
            }
            pos = close + 1;
        }
        return new TextTemplate(source, List.copyOf(parts), Set.copyOf(used));
    }

    public String render(Values values) {
        StringBuilder out = new StringBuilder(source.length() + 16);
        for (Part part : parts) {
            part.append(out, values);
        }
        return out.toString();
    }

    public Set<Variable> variables() {
        return variables;
    }

    public String source() {
        return source;
    }

    @Override
    public String toString() {
        return source;
    }

    private static Part literal(String text) {
        return (out, v) -> out.append(text);
    }

    @FunctionalInterface
    private interface Expression {
        long evaluate(Values values);
    }

    /** Recursive descent over + - * / % and parentheses; precedence as in Java. */
    private static final class ExpressionParser {
        private final String template;
        private final String text;
        private final Set<Variable> used;
        private int pos;

        ExpressionParser(String template, String text, Set<Variable> used) {
            this.template = template;
            this.text = text;
            this.used = used;
        }

        Expression parse() {
            if (text.isEmpty()) {
                throw error("empty placeholder {}");
            }
            Expression result = sum();
            skipSpaces();
            if (pos != text.length()) {
                throw error("unexpected '" + text.charAt(pos) + "'");
            }
            return result;
        }

        private Expression sum() {
            Expression left = product();
            while (true) {
                skipSpaces();
                if (accept('+')) {
                    Expression l = left, r = product();
                    left = v -> l.evaluate(v) + r.evaluate(v);
                } else if (accept('-')) {
                    Expression l = left, r = product();
                    left = v -> l.evaluate(v) - r.evaluate(v);
                } else {
                    return left;
                }
            }
        }

        private Expression product() {
            Expression left = factor();
            while (true) {
                skipSpaces();
                char op = pos < text.length() ? text.charAt(pos) : 0;
                if (op != '*' && op != '/' && op != '%') {
                    return left;
                }
                pos++;
                int divisorAt = pos;
                Expression l = left, r = factor();
                if (op != '*' && isZeroLiteral(divisorAt)) {
                    throw error("division by zero");
                }
                left = switch (op) {
                    case '*' -> v -> l.evaluate(v) * r.evaluate(v);
                    case '/' -> v -> l.evaluate(v) / nonZero(r.evaluate(v));
                    default -> v -> Math.floorMod(l.evaluate(v), nonZero(r.evaluate(v)));
                };
            }
        }

        private Expression factor() {
            skipSpaces();
            if (accept('(')) {
                Expression inner = sum();
                skipSpaces();
                if (!accept(')')) {
                    throw error("missing ')'");
                }
                return inner;
            }
            if (accept('-')) {
                Expression inner = factor();
                return v -> -inner.evaluate(v);
            }
            if (pos >= text.length()) {
                throw error("expression ends early");
            }
            char c = text.charAt(pos);
            if (Character.isDigit(c)) {
                int start = pos;
                while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                    pos++;
                }
                long value = Long.parseLong(text.substring(start, pos));
                return v -> value;
            }
            if (Character.isLetter(c)) {
                int start = pos;
                while (pos < text.length() && Character.isLetterOrDigit(text.charAt(pos))) {
                    pos++;
                }
                String name = text.substring(start, pos);
                switch (name) {
                    case "n" -> {
                        used.add(Variable.N);
                        return Values::n;
                    }
                    case "i" -> {
                        used.add(Variable.I);
                        return Values::i;
                    }
                    case "k" -> {
                        used.add(Variable.K);
                        return Values::k;
                    }
                    default -> throw error("unknown placeholder '" + name + "' (known: n, i, k, group, run)");
                }
            }
            throw error("unexpected '" + c + "'");
        }

        private boolean isZeroLiteral(int from) {
            String rest = text.substring(from).trim();
            int end = 0;
            while (end < rest.length() && Character.isDigit(rest.charAt(end))) {
                end++;
            }
            return end > 0 && Long.parseLong(rest.substring(0, end)) == 0;
        }

        private static long nonZero(long divisor) {
            if (divisor == 0) {
                throw new ArithmeticException("template divides by zero");
            }
            return divisor;
        }

        private boolean accept(char c) {
            if (pos < text.length() && text.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        private void skipSpaces() {
            while (pos < text.length() && text.charAt(pos) == ' ') {
                pos++;
            }
        }

        private IllegalArgumentException error(String reason) {
            return new IllegalArgumentException("'" + template + "': in {" + text + "}: " + reason);
        }
    }
}
