package io.tributary.session.search;

/** SQL {@code LIKE} patterns for prefix searches: the user's text is literal, never a wildcard. */
final class LikePattern {

    private LikePattern() {}

    /** {@code prefix%}, with {@code \}, {@code %} and {@code _} of the prefix escaped (PostgreSQL's default escape). */
    static String startingWith(String prefix) {
        StringBuilder pattern = new StringBuilder(prefix.length() + 2);
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c == '\\' || c == '%' || c == '_') {
                pattern.append('\\');
            }
            pattern.append(c);
        }
        return pattern.append('%').toString();
    }
}
