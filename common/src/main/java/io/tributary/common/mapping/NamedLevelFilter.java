package io.tributary.common.mapping;

import io.tributary.common.topic.TopicFilters;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * An MQTT topic filter whose single-level wildcards may be named: {@code vehicles/{vin}/telemetry/#}. A named level
 * {@code {vin}} matches like {@code +} and makes the level's value available by name (for a record key). Parsed by
 * session-service to validate a rule and by transport nodes to apply it, so both read the same syntax.
 */
public final class NamedLevelFilter {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]{0,63}");

    private final String text;
    private final String mqttFilter;
    /** Per level of the filter: the level's name when it is a named wildcard, else null. */
    private final String[] names;

    private NamedLevelFilter(String text, String mqttFilter, String[] names) {
        this.text = text;
        this.mqttFilter = mqttFilter;
        this.names = names;
    }

    /** @throws IllegalArgumentException with a message fit for an API client when the filter is not valid */
    public static NamedLevelFilter parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("filter is required");
        }
        if (text.startsWith("$")) {
            // $share/... is a subscription concept and $SYS is the broker's own: clients never publish there.
            throw new IllegalArgumentException("filter must not start with '$': " + text);
        }
        String[] levels = text.split("/", -1);
        String[] names = new String[levels.length];
        List<String> seen = new ArrayList<>();
        StringBuilder mqtt = new StringBuilder(text.length());
        for (int i = 0; i < levels.length; i++) {
            String level = levels[i];
            if (i > 0) {
                mqtt.append('/');
            }
            if (level.startsWith("{") && level.endsWith("}") && level.length() >= 2) {
                String name = level.substring(1, level.length() - 1);
                if (!NAME.matcher(name).matches()) {
                    throw new IllegalArgumentException(
                            "level name '" + name + "' in filter '" + text + "' must match " + NAME.pattern());
                }
                if (seen.contains(name)) {
                    throw new IllegalArgumentException(
                            "level name '" + name + "' appears twice in filter '" + text + "'");
                }
                seen.add(name);
                names[i] = name;
                mqtt.append('+');
            } else if (level.indexOf('{') >= 0 || level.indexOf('}') >= 0) {
                throw new IllegalArgumentException("a named level must be a whole level, as in a/{name}/b: '" + level
                        + "' in filter '" + text + "'");
            } else {
                mqtt.append(level);
            }
        }
        String mqttFilter = mqtt.toString();
        String problem = TopicFilters.topicFilterProblem(mqttFilter);
        if (problem != null) {
            throw new IllegalArgumentException("filter '" + text + "': " + problem);
        }
        return new NamedLevelFilter(text, mqttFilter, names);
    }

    /** The filter as written, with its names. */
    public String text() {
        return text;
    }

    /** The plain MQTT filter: every named level replaced by {@code +}. */
    public String mqttFilter() {
        return mqttFilter;
    }

    public boolean hasLevel(String name) {
        return indexOf(name) >= 0;
    }

    /** Position of the named level (0-based), or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < names.length; i++) {
            if (name.equals(names[i])) {
                return i;
            }
        }
        return -1;
    }

    public List<String> levelNames() {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (n != null) {
                out.add(n);
            }
        }
        return out;
    }

    /**
     * Level {@code index} of a topic name this filter matched (so the level exists: named levels come before any
     * {@code #}).
     */
    public static String level(String topic, int index) {
        int start = 0;
        for (int i = 0; i < index; i++) {
            start = topic.indexOf('/', start) + 1;
        }
        int end = topic.indexOf('/', start);
        return end < 0 ? topic.substring(start) : topic.substring(start, end);
    }

    @Override
    public String toString() {
        return text;
    }
}
