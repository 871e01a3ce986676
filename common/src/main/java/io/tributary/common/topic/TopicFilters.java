package io.tributary.common.topic;

import java.nio.charset.StandardCharsets;

/**
 * MQTT topic name and topic filter rules (MQTT 3.1.1 section 4.7, MQTT 5.0 section 4.7). Both ends of the system
 * apply the same rules, so they are part of the contract.
 */
public final class TopicFilters {

    public static final int MAX_LENGTH_BYTES = 65_535;

    private TopicFilters() {}

    /** Why a topic name is not valid for a PUBLISH, or {@code null} when it is valid. */
    public static String topicNameProblem(String topic) {
        if (topic == null || topic.isEmpty()) {
            return "topic name is empty";
        }
        if (topic.getBytes(StandardCharsets.UTF_8).length > MAX_LENGTH_BYTES) {
            return "topic name longer than 65535 bytes";
        }
        for (int i = 0; i < topic.length(); i++) {
            char c = topic.charAt(i);
            if (c == '+' || c == '#') {
                return "wildcard '" + c + "' in a topic name";
            }
            if (c == '\u0000') {
                return "U+0000 in a topic name";
            }
        }
        return null;
    }

    /** Why a topic filter is not valid for a SUBSCRIBE, or {@code null} when it is valid. */
    public static String topicFilterProblem(String filter) {
        if (filter == null || filter.isEmpty()) {
            return "topic filter is empty";
        }
        if (filter.getBytes(StandardCharsets.UTF_8).length > MAX_LENGTH_BYTES) {
            return "topic filter longer than 65535 bytes";
        }
        int levelStart = 0;
        for (int i = 0; i <= filter.length(); i++) {
            if (i == filter.length() || filter.charAt(i) == '/') {
                int len = i - levelStart;
                for (int j = levelStart; j < i; j++) {
                    char c = filter.charAt(j);
                    if ((c == '+' || c == '#') && len != 1) {
                        return "wildcard '" + c + "' must occupy a whole level";
                    }
                    if (c == '#' && i != filter.length()) {
                        return "'#' must be the last level";
                    }
                    if (c == '\u0000') {
                        return "U+0000 in a topic filter";
                    }
                }
                levelStart = i + 1;
            }
        }
        return null;
    }

    /**
     * Levels of a topic name or filter: one more than its separators ("a" 1, "a/b" 2, "/" 2, "a/#" 2). A shared
     * subscription counts the levels of its inner filter, as that is what is matched against topic names.
     */
    public static int levels(String topicOrFilter) {
        String s = SharedFilters.innerFilter(topicOrFilter);
        int levels = 1;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '/') {
                levels++;
            }
        }
        return levels;
    }

    public static boolean hasWildcard(String filter) {
        return filter.indexOf('+') >= 0 || filter.indexOf('#') >= 0;
    }

    /** Reference matcher, used by tests and for single checks; bulk matching goes through {@link TopicTrie}. */
    public static boolean matches(String filter, String topic) {
        if (topic.startsWith("$") && (filter.startsWith("+") || filter.startsWith("#"))) {
            return false;
        }
        String[] f = filter.split("/", -1);
        String[] t = topic.split("/", -1);
        for (int i = 0; i < f.length; i++) {
            if (f[i].equals("#")) {
                return true;
            }
            if (i >= t.length) {
                return false;
            }
            if (!f[i].equals("+") && !f[i].equals(t[i])) {
                return false;
            }
        }
        return f.length == t.length;
    }
}
