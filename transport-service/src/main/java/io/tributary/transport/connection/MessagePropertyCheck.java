package io.tributary.transport.connection;

import io.netty.handler.codec.mqtt.MqttProperties;
import io.tributary.common.topic.TopicFilters;

/**
 * The properties of an MQTT 5 PUBLISH or will that travel with the message, checked before it is taken: what the
 * decoder lets through and a subscriber's client would refuse. Forwarded, such a message made every MQTT 5
 * subscriber whose client checks incoming packets (HiveMQ's, for one) close its own connection on it, so one bad
 * publisher disconnected the others; refused here, only the publisher is closed.
 * <ul>
 * <li>U+0000 in a UTF-8 string (Content Type, Response Topic, a User Property): a Malformed Packet [MQTT-1.5.4-2].</li>
 * <li>A Payload Format Indicator other than 0 or 1 (section 3.3.2.3.2 defines no other): a Protocol Error.</li>
 * <li>A Response Topic that is not a topic name (a wildcard [MQTT-3.3.2-14], empty): a Protocol Error.</li>
 * </ul>
 */
public final class MessagePropertyCheck {

    /** What is wrong; {@code malformed}: Malformed Packet (0x81), else Protocol Error (0x82). */
    public record Problem(boolean malformed, String text) {}

    private MessagePropertyCheck() {}

    /** The first problem of {@code properties}, or null when there is none. */
    public static Problem problem(MqttProperties properties) {
        if (properties == null || properties.isEmpty()) {
            return null;
        }
        MqttProperties.MqttProperty<?> p = properties.getProperty(MqttProperties.PAYLOAD_FORMAT_INDICATOR);
        if (p != null && (Integer) p.value() != 0 && (Integer) p.value() != 1) {
            return new Problem(false, "a Payload Format Indicator of " + p.value() + " (only 0 and 1 are defined)");
        }
        if (hasNull(properties.getProperty(MqttProperties.CONTENT_TYPE))) {
            return new Problem(true, "U+0000 in its Content Type");
        }
        for (MqttProperties.MqttProperty<?> user : properties.getProperties(MqttProperties.USER_PROPERTY)) {
            MqttProperties.StringPair pair = ((MqttProperties.UserProperty) user).value();
            if (pair.key.indexOf('\u0000') >= 0 || pair.value.indexOf('\u0000') >= 0) {
                return new Problem(true, "U+0000 in a User Property");
            }
        }
        p = properties.getProperty(MqttProperties.RESPONSE_TOPIC);
        if (p != null) {
            String topicProblem = TopicFilters.topicNameProblem((String) p.value());
            if (topicProblem != null) {
                return new Problem(
                        hasNull(p), "a Response Topic that is not a valid topic name (" + topicProblem + ")");
            }
        }
        return null;
    }

    /**
     * {@code properties} without those {@link #problem} objects to, for a message about to be delivered: a record
     * from another Kafka producer (a Kafka-to-MQTT rule's source topic, any client of the publish topic) was never
     * checked as an MQTT PUBLISH, and one bad header must not make the subscriber's client close its connection.
     * The same object when nothing is wrong, as is almost always the case.
     */
    public static MqttProperties deliverable(MqttProperties properties) {
        if (problem(properties) == null) {
            return properties;
        }
        MqttProperties out = new MqttProperties();
        for (MqttProperties.MqttProperty<?> p : properties.listAll()) {
            if (p.propertyId() != MqttProperties.USER_PROPERTY && fine(p)) {
                out.add(p);
            }
        }
        // User properties one by one, in their order (MQTT 5 section 3.3.2.3.7 keeps it).
        for (MqttProperties.MqttProperty<?> p : properties.getProperties(MqttProperties.USER_PROPERTY)) {
            if (fine(p)) {
                out.add(p);
            }
        }
        return out;
    }

    private static boolean fine(MqttProperties.MqttProperty<?> p) {
        MqttProperties one = new MqttProperties();
        one.add(p);
        return problem(one) == null;
    }

    private static boolean hasNull(MqttProperties.MqttProperty<?> p) {
        return p != null && ((String) p.value()).indexOf('\u0000') >= 0;
    }
}
