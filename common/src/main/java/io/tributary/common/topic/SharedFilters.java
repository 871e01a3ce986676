package io.tributary.common.topic;

/**
 * Shared subscription filters, {@code $share/{ShareName}/{filter}} (MQTT 5.0 section 4.8.2; accepted from 3.1.1
 * clients too, as most brokers do). The full string is what a client subscribes to and what is stored; the inner
 * filter is what topics are matched against and what decides where the subscription is placed, so a shared
 * subscription lives on the same feed partition (and router) as a normal subscription to its inner filter.
 */
public final class SharedFilters {

    public static final String PREFIX = "$share/";

    private SharedFilters() {}

    public static boolean isShared(String filter) {
        return filter != null && filter.startsWith(PREFIX);
    }

    /**
     * Why a {@code $share/} filter is not valid, or {@code null} when it is: ShareName must be non-empty without
     * {@code /}, {@code +} or {@code #}, and the inner filter must be a valid topic filter.
     */
    public static String problem(String filter) {
        int slash = filter.indexOf('/', PREFIX.length());
        if (slash < 0) {
            return "shared subscription without a topic filter after the share name";
        }
        String shareName = filter.substring(PREFIX.length(), slash);
        if (shareName.isEmpty()) {
            return "empty share name";
        }
        if (shareName.indexOf('+') >= 0 || shareName.indexOf('#') >= 0) {
            return "wildcard in the share name";
        }
        String inner = filter.substring(slash + 1);
        String innerProblem = TopicFilters.topicFilterProblem(inner);
        return innerProblem == null ? null : "shared subscription: " + innerProblem;
    }

    /** The share name of a valid shared filter, {@code null} for a normal filter. */
    public static String shareName(String filter) {
        if (!isShared(filter)) {
            return null;
        }
        return filter.substring(PREFIX.length(), filter.indexOf('/', PREFIX.length()));
    }

    /** The filter topics are matched against: the part after the share name, or the filter itself if not shared. */
    public static String innerFilter(String filter) {
        if (!isShared(filter)) {
            return filter;
        }
        return filter.substring(filter.indexOf('/', PREFIX.length()) + 1);
    }
}
