package io.tributary.session.retained;

import io.tributary.common.topic.TopicFilters;

/**
 * How a topic filter is looked up in {@code retained_messages}: an exact filter by equality; a wildcard filter by
 * the literal levels before its first wildcard ({@code LIKE 'prefix%'}, served by the {@code text_pattern_ops}
 * index), after which every candidate is matched exactly with {@link TopicFilters#matches} (which also applies the
 * rule that a leading wildcard does not match {@code $} topics).
 */
public record RetainedQuery(String filter, boolean exact, String likePattern) {

    public static RetainedQuery of(String filter) {
        if (!TopicFilters.hasWildcard(filter)) {
            return new RetainedQuery(filter, true, null);
        }
        int plus = filter.indexOf('+');
        int hash = filter.indexOf('#');
        int first = plus < 0 ? hash : hash < 0 ? plus : Math.min(plus, hash);
        return new RetainedQuery(filter, false, escapeLike(filter.substring(0, first)) + "%");
    }

    /** Whether a candidate topic returned by the narrowed query really matches the filter. */
    public boolean matches(String topic) {
        return exact ? filter.equals(topic) : TopicFilters.matches(filter, topic);
    }

    /** Escapes LIKE's own wildcards, with {@code \} as the escape character. */
    static String escapeLike(String literal) {
        StringBuilder out = new StringBuilder(literal.length() + 8);
        for (int i = 0; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (c == '%' || c == '_' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }
}
