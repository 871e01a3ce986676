package io.tributary.perf.scenario;

/**
 * MQTT topic filter matching and syntax checks, so the generator can tell how many copies of each publish the
 * broker should deliver. Kept here (not taken from tributary-common) so the load tool stays broker-agnostic and free
 * of Kafka dependencies.
 */
public final class TopicFilterMatcher {

    private TopicFilterMatcher() {}

    public static boolean hasWildcard(String filter) {
        return filter.indexOf('+') >= 0 || filter.indexOf('#') >= 0;
    }

    /** Returns null when the filter is valid, else why not. */
    public static String filterProblem(String filter) {
        if (filter.isEmpty()) {
            return "filter is empty";
        }
        String[] levels = filter.split("/", -1);
        for (int i = 0; i < levels.length; i++) {
            String level = levels[i];
            if (level.contains("#") && (!level.equals("#") || i != levels.length - 1)) {
                return "'#' must be a whole level and the last one";
            }
            if (level.contains("+") && !level.equals("+")) {
                return "'+' must be a whole level";
            }
        }
        return null;
    }

    /** Returns null when the topic name is valid for PUBLISH, else why not. */
    public static String topicProblem(String topic) {
        if (topic.isEmpty()) {
            return "topic is empty";
        }
        if (hasWildcard(topic)) {
            return "a publish topic cannot contain '+' or '#'";
        }
        return null;
    }

    /** True when the (valid) filter matches the topic name; '$' topics are not matched by leading wildcards. */
    public static boolean matches(String filter, String topic) {
        if (!hasWildcard(filter)) {
            return filter.equals(topic);
        }
        if (topic.startsWith("$") && (filter.startsWith("+") || filter.startsWith("#"))) {
            return false;
        }
        int f = 0;
        int t = 0;
        while (true) {
            int fEnd = indexOrEnd(filter, f);
            String level = filter.substring(f, fEnd);
            if (level.equals("#")) {
                return true;
            }
            if (t > topic.length()) {
                return false;
            }
            int tEnd = indexOrEnd(topic, t);
            if (!level.equals("+") && !level.equals(topic.substring(t, tEnd))) {
                return false;
            }
            boolean filterDone = fEnd == filter.length();
            boolean topicDone = tEnd == topic.length();
            if (filterDone || topicDone) {
                if (filterDone && topicDone) {
                    return true;
                }
                // "a/#" also matches "a": the filter's next and last level is '#'.
                return topicDone && filter.substring(fEnd + 1).equals("#");
            }
            f = fEnd + 1;
            t = tEnd + 1;
        }
    }

    private static int indexOrEnd(String text, int from) {
        int slash = text.indexOf('/', from);
        return slash < 0 ? text.length() : slash;
    }
}
