package io.tributary.common.mapping;

import io.tributary.common.topic.TopicFilters;

/**
 * The MQTT topic a Kafka-to-MQTT rule delivers a record on, built from the record: {@code devices/{key}/commands}
 * puts the record key (UTF-8) where {@code {key}} stands. A key that would change the topic's shape (a {@code /},
 * a wildcard, U+0000) or is missing gives no topic, so a record can never reach subscribers of another device; nor
 * does one that would make the topic start with {@code $} (a tenant's namespace, {@code $SYS}).
 */
public final class MqttTopicTemplate {

    public static final String KEY = "{key}";

    private final String text;

    private MqttTopicTemplate(String text) {
        this.text = text;
    }

    /** @throws IllegalArgumentException with a message fit for an API client */
    public static MqttTopicTemplate parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("mqttTopic is required");
        }
        if (text.startsWith("$")) {
            throw new IllegalArgumentException("mqttTopic must not start with '$': " + text);
        }
        String rest = text.replace(KEY, "k");
        if (rest.indexOf('{') >= 0 || rest.indexOf('}') >= 0) {
            throw new IllegalArgumentException("mqttTopic may contain only the placeholder {key}: " + text);
        }
        String problem = TopicFilters.topicNameProblem(rest);
        if (problem != null) {
            throw new IllegalArgumentException("mqttTopic '" + text + "': " + problem);
        }
        return new MqttTopicTemplate(text);
    }

    public boolean usesKey() {
        return text.contains(KEY);
    }

    /** The topic for a record with this key, or null when the key is missing or would change the topic's levels. */
    public String topicFor(String key) {
        if (!usesKey()) {
            return text;
        }
        if (key == null
                || key.isEmpty()
                || key.indexOf('/') >= 0
                || key.indexOf('+') >= 0
                || key.indexOf('#') >= 0
                || key.indexOf('\u0000') >= 0) {
            return null;
        }
        String topic = text.replace(KEY, key);
        // A key at the front must not open a '$' level: $SYS is the broker's, $tenant/<id>/ another tenant's topics.
        return topic.startsWith("$") ? null : topic;
    }

    @Override
    public String toString() {
        return text;
    }
}
