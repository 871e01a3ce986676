package io.tributary.transport.alias;

import java.util.HashMap;
import java.util.Map;

/**
 * Topic aliases we send one client (MQTT 5 section 3.3.2.3.4), up to the Topic Alias Maximum it declared in
 * CONNECT. The first distinct topics delivered to the connection get the aliases and keep them for its lifetime:
 * no eviction, so an alias never changes meaning mid-connection and the client never has to re-learn one. Devices
 * subscribe to a few topics that repeat, which is exactly where the first topics win. Event-loop only.
 */
public final class OutboundTopicAliases {

    /**
     * How one PUBLISH names its topic on the wire: {@code alias} 0 = no alias; {@code topicOnWire} is empty once the
     * client knows the alias.
     */
    public record Use(String topicOnWire, int alias) {}

    private final int maximum;
    private final Map<String, Integer> aliases = new HashMap<>();

    /** @param maximum the client's Topic Alias Maximum (greater than 0) */
    public OutboundTopicAliases(int maximum) {
        this.maximum = maximum;
    }

    /** What {@link #use} would return now, without assigning anything. */
    public Use peek(String topic) {
        Integer alias = aliases.get(topic);
        if (alias != null) {
            return new Use("", alias);
        }
        return aliases.size() < maximum ? new Use(topic, aliases.size() + 1) : new Use(topic, 0);
    }

    /**
     * Call only when the PUBLISH is actually written, in write order: the first PUBLISH carrying a new alias also
     * carries the topic name, which is what teaches the client the mapping.
     */
    public Use use(String topic) {
        Integer alias = aliases.get(topic);
        if (alias != null) {
            return new Use("", alias);
        }
        if (aliases.size() < maximum) {
            int assigned = aliases.size() + 1;
            aliases.put(topic, assigned);
            return new Use(topic, assigned);
        }
        return new Use(topic, 0);
    }
}
