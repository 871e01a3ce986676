package io.tributary.common.mapping;

import java.nio.charset.StandardCharsets;

/**
 * Where a mapped record's Kafka key comes from. Written as {@code topic} (the MQTT topic name), {@code client-id}
 * (the publishing client), {@code none} (no key: Kafka spreads the records over the partitions) or {@code {name}}
 * (the value of a named level of the rule's filter). The key decides the partition, hence what stays in order.
 */
public record RecordKeySource(Kind kind, String level) {

    public enum Kind {
        TOPIC,
        CLIENT_ID,
        NONE,
        LEVEL
    }

    public static final RecordKeySource TOPIC = new RecordKeySource(Kind.TOPIC, null);

    /**
     * @param filter the rule's filter, which a {@code {name}} must name a level of
     * @throws IllegalArgumentException with a message fit for an API client
     */
    public static RecordKeySource parse(String text, NamedLevelFilter filter) {
        if (text == null || text.isEmpty() || text.equals("topic")) {
            return TOPIC;
        }
        if (text.equals("client-id")) {
            return new RecordKeySource(Kind.CLIENT_ID, null);
        }
        if (text.equals("none")) {
            return new RecordKeySource(Kind.NONE, null);
        }
        if (text.length() > 2 && text.startsWith("{") && text.endsWith("}")) {
            String name = text.substring(1, text.length() - 1);
            if (!filter.hasLevel(name)) {
                throw new IllegalArgumentException("key '" + text + "' names no level of filter '" + filter.text()
                        + "' (its named levels: " + filter.levelNames() + ")");
            }
            return new RecordKeySource(Kind.LEVEL, name);
        }
        throw new IllegalArgumentException("key must be topic, client-id, none or {level name}: '" + text + "'");
    }

    /** The key of the record for a publish on {@code topic} that {@code filter} matched. */
    public byte[] key(NamedLevelFilter filter, String topic, String clientId) {
        return switch (kind) {
            case TOPIC -> topic.getBytes(StandardCharsets.UTF_8);
            case CLIENT_ID -> clientId.getBytes(StandardCharsets.UTF_8);
            case NONE -> null;
            case LEVEL -> NamedLevelFilter.level(topic, filter.indexOf(level)).getBytes(StandardCharsets.UTF_8);
        };
    }

    @Override
    public String toString() {
        return switch (kind) {
            case TOPIC -> "topic";
            case CLIENT_ID -> "client-id";
            case NONE -> "none";
            case LEVEL -> "{" + level + "}";
        };
    }
}
