package io.tributary.common.mapping;

import java.util.Objects;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;

/**
 * An MQTT-to-Kafka mapping rule: every PUBLISH whose topic matches {@link #filter} is also written, payload untouched
 * and with the same metadata headers as its {@link io.tributary.common.kafka.TopicNames#PUBLISH} record, to the
 * user's Kafka topic {@link #kafkaTopic}, keyed as {@link #key} says.
 */
public record MappingRule(long id, NamedLevelFilter filter, String kafkaTopic, RecordKeySource key) {

    public MappingRule {
        Objects.requireNonNull(filter);
        Objects.requireNonNull(key);
        checkTopicName(kafkaTopic);
    }

    /** Parses the textual form of a rule; {@link IllegalArgumentException} with a message fit for an API client. */
    public static MappingRule of(long id, String filter, String kafkaTopic, String key) {
        NamedLevelFilter parsed = NamedLevelFilter.parse(filter);
        return new MappingRule(id, parsed, kafkaTopic, RecordKeySource.parse(key, parsed));
    }

    /**
     * A topic the user may name: a legal Kafka topic name, and none of Tributary's own topics ({@code tributary.*})
     * or Kafka's internal ones ({@code __*}), whose records have a fixed meaning.
     */
    public static void checkTopicName(String kafkaTopic) {
        if (kafkaTopic == null || kafkaTopic.isEmpty()) {
            throw new IllegalArgumentException("kafkaTopic is required");
        }
        try {
            Topic.validate(kafkaTopic);
        } catch (InvalidTopicException e) {
            throw new IllegalArgumentException("kafkaTopic: " + e.getMessage());
        }
        if (kafkaTopic.startsWith("tributary.") || kafkaTopic.startsWith("__")) {
            throw new IllegalArgumentException(
                    "kafkaTopic '" + kafkaTopic + "' is reserved (tributary.* and __* belong to Tributary and Kafka)");
        }
    }
}
