package io.tributary.transport.alias;

import io.netty.handler.codec.mqtt.MqttReasonCodes.Disconnect;

/**
 * Topic aliases a client defined for its PUBLISH packets to us (MQTT 5 section 3.3.2.3.4). They live only as long
 * as the network connection, and are independent of the aliases we send the client. Event-loop only.
 */
public final class InboundTopicAliases {

    /** What a PUBLISH's topic name and Topic Alias resolve to. Exactly one of the fields is set. */
    public record Resolution(String topic, byte reasonCode, String problem) {

        static Resolution of(String topic) {
            return new Resolution(topic, (byte) 0, null);
        }

        static Resolution failure(Disconnect reason, String problem) {
            return new Resolution(null, reason.byteValue(), problem);
        }

        public boolean failed() {
            return topic == null;
        }
    }

    private final int maximum;
    /** Index = alias; allocated on first use since most clients never send an alias. */
    private String[] topics;

    /** @param maximum the Topic Alias Maximum we announced in CONNACK */
    public InboundTopicAliases(int maximum) {
        this.maximum = maximum;
    }

    /**
     * Resolves the topic of a PUBLISH. A non-empty topic with an alias (re)defines the alias, which the caller
     * must do only after it has validated the topic — hence {@link #define}, separate from this lookup.
     *
     * @param alias the Topic Alias property, or {@code null} when absent
     */
    public Resolution resolve(String topic, Integer alias) {
        if (alias == null) {
            return topic.isEmpty()
                    ? Resolution.failure(
                            Disconnect.PROTOCOL_ERROR, "PUBLISH with an empty topic name and no Topic Alias")
                    : Resolution.of(topic);
        }
        if (alias == 0 || alias > maximum) {
            return Resolution.failure(
                    Disconnect.TOPIC_ALIAS_INVALID, "Topic Alias " + alias + " outside 1.." + maximum);
        }
        if (!topic.isEmpty()) {
            return Resolution.of(topic);
        }
        String known = topics == null ? null : topics[alias];
        return known == null
                ? Resolution.failure(
                        Disconnect.PROTOCOL_ERROR,
                        "PUBLISH with an empty topic name and undefined Topic Alias " + alias)
                : Resolution.of(known);
    }

    /** Binds {@code alias} (already checked by {@link #resolve}) to a validated topic name. */
    public void define(int alias, String topic) {
        if (topics == null) {
            topics = new String[maximum + 1];
        }
        topics[alias] = topic;
    }
}
